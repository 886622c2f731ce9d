/* fuzz-niff.c: libFuzzer target for the NIFF reader, writer, curve adapter and scene reader
 *
 * Whatever parses must validate, describe, dump and serialize; when its header
 * already states the AnimList's true size, the bytes written back are the bytes
 * read. Every curve is built, evaluated, written back unchanged and restored.
 * Then every automatic fix is applied and leaves nothing fixable behind. The
 * scene reader either refuses with a TRESS_ERROR or gives a scene whose every
 * link the preview follows points inside its target; the scene then poses at
 * a few frames, and so does the preview's scene built from it, which exports
 * to glTF. Its first AnimGroup goes through each whole-group operation, which
 * refuses with a TRESS_ERROR or leaves a file that serializes to bytes that
 * parse again.
 *
 * The custom mutator keeps the lists' sizes true three times in four: it
 * mutates a window of 4 to 64 bytes in place (4-aligned, past the 0x50-byte
 * header: counts, offsets, floats, tags), so that the reader gets past its
 * size checks into the lists' elements; else libFuzzer's own mutation.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "../fuzz/tress-fuzz.h"
#include "formats/niff/tress-niff-animator.h"
#include "formats/niff/tress-niff-animops.h"
#include "formats/niff/tress-niff-scene.h"
#include "interchange/tress-gltf-niff.h"

#define NONE TRESS_NIFF_NONE

static void
check_group (guint32 g, guint32 n_groups, const TressNiffFloatGroup *groups, guint32 index)
{
  g_assert (g == NONE || g < n_groups);
  if (g != NONE)
    g_assert (index == NONE || index < groups[g].n);
}

static double
sample_zero (gpointer data, guint curve, double frame)
{
  return 0;
}

/* Every link the preview follows lies inside its target. */
static void
check_scene (const TressNiffScene *s, guint n_groups)
{
  for (guint32 i = 0; i < s->n_objects; i++)
    {
      const TressNiffSceneObject *o = &s->objects[i];
      guint32 depth = 0;

      g_assert (o->shape == NONE || o->shape < s->n_shapes);
      g_assert (o->mat == NONE || o->mat < s->n_mats);
      for (guint32 p = o->parent; p != NONE; p = s->objects[p].parent)
        g_assert (p < s->n_objects && ++depth <= s->n_objects);
      for (guint32 k = 0; k < o->n_chain_roots; k++)
        g_assert (o->chain_roots[k] < s->n_chain_roots);
    }
  for (guint32 i = 0; i < s->n_shapes; i++)
    {
      const TressNiffSceneShape *sh = &s->shapes[i];

      g_assert (sh->mat == NONE || sh->mat < s->n_mats);
      for (guint32 k = 0; k < sh->n_parts; k++)
        g_assert (sh->parts[k] < s->n_parts);
      if (sh->geometry_kind == TRESS_NIFF_TAG_TRI_GROUP)
        g_assert (sh->geometry == NONE || sh->geometry < s->n_tri_groups);
      else if (sh->geometry_kind == TRESS_NIFF_TAG_ENVELOPE)
        g_assert (sh->geometry == NONE || sh->geometry < s->n_envelopes);
      tress_niff_scene_tri_mat (s, 0, i, 0);
    }
  for (guint32 i = 0; i < s->n_parts; i++)
    g_assert (s->parts[i].mat == TRESS_NIFF_PART_USE_SHAPE_MAT || s->parts[i].mat == NONE
              || s->parts[i].mat < s->n_mats);
  for (guint32 i = 0; i < s->n_tri_groups; i++)
    {
      const TressNiffTriGroup *tg = &s->tri_groups[i];
      for (guint32 r = 0; r < tg->refs[TRESS_NIFF_REF_VTX].n; r++)
        for (guint32 t = 0; t < tg->n_tris; t++)
          {
            const TressNiffTri *tri = &tg->tris[t];
            for (guint c = 0; c < 3; c++)
              {
                check_group (tg->refs[TRESS_NIFF_REF_VTX].group[r], s->n_vtx, s->vtx, tri->vtx[c]);
                g_assert (tri->vtx[c] != NONE);
              }
          }
      for (guint32 t = 0; t < tg->n_tris; t++)
        {
          const TressNiffTri *tri = &tg->tris[t];
          for (guint32 r = 0; r < tg->refs[TRESS_NIFF_REF_VTX_NV].n; r++)
            for (guint c = 0; c < 3; c++)
              check_group (tg->refs[TRESS_NIFF_REF_VTX_NV].group[r], s->n_vtx_nvs, s->vtx_nvs,
                           tri->vtx_nv[c]);
          for (guint32 r = 0; r < tg->refs[TRESS_NIFF_REF_VTX_COLOR].n; r++)
            for (guint c = 0; c < 3; c++)
              check_group (tg->refs[TRESS_NIFF_REF_VTX_COLOR].group[r], s->n_vtx_colors,
                           s->vtx_colors, tri->vtx_color[c]);
          for (guint32 r = 0; r < tg->refs[TRESS_NIFF_REF_TRI_NV].n; r++)
            check_group (tg->refs[TRESS_NIFF_REF_TRI_NV].group[r], s->n_tri_nvs, s->tri_nvs,
                         tri->tri_nv);
          for (guint32 r = 0; r < tg->refs[TRESS_NIFF_REF_TRI_COLOR].n; r++)
            check_group (tg->refs[TRESS_NIFF_REF_TRI_COLOR].group[r], s->n_tri_colors,
                         s->tri_colors, tri->tri_color);
        }
    }
  for (guint32 i = 0; i < s->n_envelopes; i++)
    {
      const TressNiffEnvelope *env = &s->envelopes[i];
      for (guint32 t = 0; t < env->n_tris; t++)
        for (guint c = 0; c < 3; c++)
          {
            const TressNiffEnvelopeVtx *v = &env->tris[t].v[c];
            if (v->part_kind == TRESS_NIFF_TAG_FULL_WEIGHTED_PART)
              {
                g_assert (v->part < env->n_full);
                check_group (env->full[v->part].vtx, s->n_vtx, s->vtx, v->vtx);
              }
            else
              {
                const TressNiffWeightedPart *w;
                g_assert (v->part_kind == TRESS_NIFF_TAG_WEIGHTED_PART
                          && v->part < env->n_weighted);
                w = &env->weighted[v->part];
                for (guint32 k = 0; k < w->n_nodes; k++)
                  {
                    check_group (w->vtx[k], s->n_vtx, s->vtx, v->vtx);
                    check_group (w->weight_group[k], s->n_weights, s->weights, v->weight);
                  }
              }
          }
    }
  for (guint32 i = 0; i < s->n_joints; i++)
    {
      g_assert (s->joints[i].joint == NONE || s->joints[i].joint < s->n_joints);
      g_assert (s->joints[i].effector == NONE || s->joints[i].effector < s->n_effectors);
      g_assert (s->joints[i].anim_group == NONE || s->joints[i].anim_group < n_groups);
    }
}

/* The scene exports to glTF, and the document to GLB: with no AnimGroup
 * animated (nodes, meshes, skins, materials), and whole where the animation
 * is short enough to sample at fuzzing speed. */
static void
check_gltf (TressNiffFile *file, double frames)
{
  static const guint none[1] = { 0 };
  const TressGltfNiffOptions still = { 0, none, 0 }; /* named: none */
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);

  for (guint pass = 0; pass < (frames <= 64 ? 2 : 1); pass++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (TressGltfWriter) w
          = tress_gltf_niff_export (file, "fuzz", pass == 0 ? &still : NULL, notes, &error);
      g_autoptr (GBytes) glb = NULL;

      g_assert_no_error (error);
      g_assert (w != NULL);
      glb = tress_gltf_writer_to_glb (w, &error);
      g_assert_no_error (error);
    }
}

static void
exercise_animops (GBytes *bytes)
{
  const TressFormat *fmt = &tress_format_niff;

  for (guint op = 0; op < 7; op++)
    {
      TressNiffFile *file = fmt->parse (bytes, "fuzz", NULL);
      g_autoptr (GError) error = NULL;
      g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
      gboolean ok = FALSE;

      if (file == NULL)
        return;
      if (tress_niff_file_get_n_groups (file) == 0)
        {
          fmt->free (file);
          return;
        }
      switch (op)
        {
        case 0:
          ok = tress_niff_retime (file, 0, 2, notes, &error);
          break;
        case 1:
          ok = tress_niff_retime (file, 0, 0.5, notes, &error);
          break;
        case 2:
          ok = tress_niff_set_group_end (file, 0,
                                         (guint32)(tress_niff_group_get_frame_count (file, 0) / 2),
                                         TRUE, notes, &error);
          break;
        case 3:
          ok = tress_niff_set_group_loop (file, 0, 1, notes, &error);
          break;
        case 4:
          ok = tress_niff_rename_group (file, 0, "fuzz_renamed", notes, &error);
          break;
        case 5:
          ok = tress_niff_duplicate_group (file, 0, "fuzz_copy", notes, &error);
          break;
        default:
          ok = tress_niff_delete_group (file, 0, notes, &error);
          break;
        }
      if (!ok)
        g_assert (error != NULL && error->domain == TRESS_ERROR);
      else
        {
          g_autoptr (GBytes) out = fmt->serialize (file, &error);
          TressNiffFile *again;

          g_assert_no_error (error);
          again = fmt->parse (out, "fuzz", &error);
          g_assert_no_error (error);
          fmt->free (again);
        }
      fmt->free (file);
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  const TressFormat *fmt = &tress_format_niff;
  g_autoptr (GBytes) bytes = g_bytes_new (data, size);
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) problems = NULL;
  g_autoptr (GBytes) out = NULL;
  g_autoptr (TressJsonWriter) jw = tress_json_writer_new ();
  g_autofree char *text = NULL;
  TressNiffFile *file;
  gsize anim_offset = 0, anim_size = 0;
  guint32 header_anim = 0;
  guint n;

  fmt->probe (data, size);
  file = fmt->parse (bytes, "fuzz", &error);
  if (file == NULL)
    {
      g_assert (error != NULL && error->domain == TRESS_ERROR);
      return 0;
    }
  problems = fmt->validate (file);
  text = fmt->describe (file);
  fmt->dump (file, jw);
  out = fmt->serialize (file, &error);
  g_assert_no_error (error);
  if (size >= 0x50)
    memcpy (&header_anim, data + 0x4C, 4);
  if (!tress_niff_file_get_anim_list_span (file, &anim_offset, &anim_size)
      || GUINT32_FROM_BE (header_anim) == anim_size)
    g_assert (g_bytes_equal (bytes, out));

  {
    g_autoptr (GError) scene_error = NULL;
    g_autoptr (TressNiffScene) scene = tress_niff_scene_new (file, &scene_error);

    if (scene == NULL)
      g_assert (scene_error != NULL && scene_error->domain == TRESS_ERROR);
    else
      {
        g_autoptr (TressNiffPose) pose = tress_niff_pose_new (scene, file);
        g_autoptr (TressSceneAnimator) animator = NULL;
        g_autoptr (GPtrArray) missing = tress_niff_pose_not_shown (scene, file);
        const guint anim = 0;

        check_scene (scene, tress_niff_file_get_n_groups (file));
        for (double f = -1; f < 40; f += 13.5)
          tress_niff_pose_evaluate (pose, scene, file, f, NULL, NULL);
        animator = tress_niff_animator_new (file, "fuzz", NULL);
        g_assert (animator != NULL);
        tress_scene_animator_pose (animator, &anim, 1, 7.5, sample_zero, NULL);
        tress_scene_animator_pose (animator, NULL, 0, 0, NULL, NULL);
        check_gltf (file, animator->anim_frames[0]);
      }
  }

  n = MIN (fmt->curves->n_curves (file), 64u);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (TressCurve) c = fmt->curves->get_curve (file, i);
      g_autoptr (GBytes) state = fmt->curves->save_state (file, i);
      g_autoptr (GBytes) again = NULL;
      g_autoptr (GError) set_error = NULL;
      double err = 0;

      tress_curve_evaluate (c, 0);
      tress_curve_evaluate (c, c->frame_count / 2);
      if (fmt->curves->set_curve (file, i, c, &err, &set_error))
        g_assert (err == 0);
      fmt->curves->restore_state (file, i, state);
      again = fmt->serialize (file, NULL);
      g_assert (g_bytes_equal (again, out));
    }

  /* Every fix offered is applied, and what is written reads back without one. */
  {
    g_autoptr (GPtrArray) left = NULL;
    g_autoptr (GBytes) fixed = NULL;
    g_autoptr (GError) fix_error = NULL;
    TressNiffFile *again;

    fmt->fix_all (file, NULL, &fix_error);
    g_assert_no_error (fix_error);
    left = fmt->validate (file);
    for (guint i = 0; i < left->len; i++)
      g_assert (((TressProblem *)g_ptr_array_index (left, i))->fix == NULL);
    fixed = fmt->serialize (file, &fix_error);
    g_assert_no_error (fix_error);
    again = fmt->parse (fixed, "fuzz", &fix_error);
    g_assert_no_error (fix_error);
    fmt->free (again);
  }
  fmt->free (file);
  exercise_animops (bytes);
  return 0;
}

/* ---- the mutator --------------------------------------------------------- */

#define HEADER 0x50

size_t
LLVMFuzzerCustomMutator (uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
  guint32 state = seed;
  gsize len, at, slots;

  if (tress_fuzz_next (&state) % 4 == 0 || size < HEADER + 8)
    return LLVMFuzzerMutate (data, size, max_size);
  len = 4 * (1 + tress_fuzz_next (&state) % 16);
  slots = (size - HEADER) / 4;
  at = HEADER + 4 * (tress_fuzz_next (&state) % slots);
  tress_fuzz_mutate_region (data, at, MIN (len, size - at));
  return size;
}
