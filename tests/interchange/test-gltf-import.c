/* test-gltf-import.c: glTF animations brought back into BFRES files
 *
 * The Bass sample is exported with the exporter, edited in memory (the
 * GLB's JSON and binary chunk taken apart and put together here) and
 * imported. What the import makes is posed by the test itself: the
 * original animation through the preview's pose code, with each imported
 * bone's components taken from the new base values and curves, composed
 * with tress_bfres_pose_world; the glTF side is posed with the tests' own
 * glTF decoder (gltf-test-reader.c) through the skinning equivalence
 * world_gltf · IBM · bind. Both must agree with each other and with what
 * the edit means (a joint turned by 20°, a root moved up, the animation
 * made twice as fast).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "core/tress-error.h"
#include "formats/bfres/tress-bfres-builder.h"
#include "formats/bfres/tress-bfres-scene.h"
#include "gltf-import-test.h"
#include "interchange/tress-gltf-bfres.h"
#include "interchange/tress-gltf-import.h"
#include "tress-test-utils.h"

/* ---- tests ------------------------------------------------------------------- */

/* The export imported as it is: every animation poses as before, each
 * original curve is kept. */
static void
test_bass_unchanged (void)
{
  Bfres b;
  g_autoptr (GBytes) glb = NULL;
  g_autoptr (TressGltfDocument) doc = NULL;
  const TressBfresAnims *anims;

  load_bass (&b);
  if (b.bfres == NULL)
    return;
  glb = export_glb (&b);
  doc = read_doc (glb);
  anims = tress_bfres_animator_get_anims (b.animator);
  for (guint k = 0; k < anims->n_skeletal; k++)
    {
      const TressBfresSkeletalAnim *sa = &anims->skeletal[k];
      g_autoptr (TressGltfImportAnim) a = import_one (&b, doc, sa->name, NULL);
      g_autofree TressBfresMatrix *got = g_new0 (TressBfresMatrix, b.model->skeleton.n_bones);
      g_autofree TressBfresMatrix *want = g_new0 (TressBfresMatrix, b.model->skeleton.n_bones);
      Worst w = { 0, 0 }, wg;
      guint n_curves = 0;

      g_assert_cmpint (a->frame_count, ==, sa->frame_count);
      g_assert_cmpint (a->old_frame_count, ==, sa->frame_count);
      g_assert_cmpuint (a->n_matched, ==, b.model->skeleton.n_bones);
      g_assert_cmpuint (a->unmatched_joints->len, ==, 0);
      /* The bone animations are the original's, in order. */
      g_assert_cmpuint (a->n_bones, ==, sa->n_bone_anims);
      for (guint i = 0; i < sa->n_bone_anims; i++)
        {
          g_assert_cmpstr (a->bones[i].bone, ==, sa->bone_anims[i].name);
          n_curves += sa->bone_anims[i].n_curves;
        }
      /* Nothing to refit: every curve still gives its samples. */
      g_assert_cmpuint (a->curves_kept, ==, n_curves);
      g_assert_cmpuint (a->curves_added + a->curves_refit + a->curves_removed, ==, 0);
      for (int f = 0; f <= sa->frame_count; f++)
        {
          spec_pose (&b, a, f, got);
          original_pose (&b, (int)k, f, want);
          for (guint i = 0; i < b.model->skeleton.n_bones; i++)
            worst_add (&w, got[i].m, want[i].m, b.size);
        }
      g_assert_cmpfloat (w.position, <=, POSITION_LIMIT);
      g_assert_cmpfloat (w.rotation, <=, ROTATION_LIMIT);
      wg = check_against_gltf (&b, glb, a, 30);
      g_test_message ("%s: against the original: position %.2g of the size, rotation %.2g°; "
                      "against the glTF: %.2g, %.2g° (the import says %.2g, %.2g°)",
                      sa->name, w.position, w.rotation, wg.position, wg.rotation,
                      a->max_position_error, a->max_rotation_error);
    }
  bfres_clear (&b);
}

/* Spine_1's samples in "Wait" turned a further 20° about its own X axis:
 * the bone turns by 20° against the original, its descendants follow. */
static void
test_bass_rotated (void)
{
  static const double x[3] = { 1, 0, 0 };
  Bfres b;
  Edit e = { 0 };
  g_autoptr (GBytes) glb = NULL, edited = NULL;
  g_autoptr (TressGltfDocument) doc = NULL;
  g_autoptr (TressGltfImportAnim) a = NULL;
  g_autofree TressBfresMatrix *got = NULL, *want = NULL;
  double extra[4];
  guint n;
  float *q;
  int node, bone, k;
  Worst w;

  load_bass (&b);
  if (b.bfres == NULL)
    return;
  glb = export_glb (&b);
  edit_open (&e, glb);
  node = edit_node (&e, "Spine_1");
  q = edit_floats (&e, edit_accessor (edit_anim (&e, "Wait"), node, "rotation", "output"), &n);
  axis_angle (x, 20, extra);
  for (guint i = 0; i < n; i++)
    {
      double v[4] = { q[4 * i], q[4 * i + 1], q[4 * i + 2], q[4 * i + 3] }, r[4];

      quat_mul (v, extra, r);
      for (guint c = 0; c < 4; c++)
        q[4 * i + c] = (float)r[c];
    }
  edited = edit_to_glb (&e);
  doc = read_doc (edited);
  a = import_one (&b, doc, "Wait", NULL);
  w = check_against_gltf (&b, edited, a, 30);
  g_test_message ("Wait, Spine_1 turned: against the glTF %.2g of the size, %.2g°", w.position,
                  w.rotation);
  /* About its own X, which Euler XYZ turns about first: a new X base value,
   * the original Y curve kept. */
  g_assert_cmpuint (a->curves_kept, ==, 7);

  /* Against the original: Spine_1 and the bones below it turned by 20°, the
   * rest as they were. */
  bone = tress_bfres_skeleton_find_bone (&b.model->skeleton, "Spine_1");
  k = skeletal_named (&b, "Wait");
  got = g_new0 (TressBfresMatrix, b.model->skeleton.n_bones);
  want = g_new0 (TressBfresMatrix, b.model->skeleton.n_bones);
  for (int f = 0; f <= a->frame_count; f++)
    {
      spec_pose (&b, a, f, got);
      original_pose (&b, k, f, want);
      g_assert_cmpfloat_with_epsilon (angle_between (got[bone].m, want[bone].m), 20, 0.05);
      g_assert_cmpfloat (position_between (got[bone].m, want[bone].m), <=, 1e-4 * b.size);
      for (guint i = 0; i < b.model->skeleton.n_bones; i++)
        {
          gboolean below = FALSE;

          for (int p = (int)i; p >= 0; p = b.model->skeleton.bones[p].parent)
            below |= p == bone;
          if (!below)
            g_assert_cmpfloat (angle_between (got[i].m, want[i].m), <=, 0.01);
          else /* turned with it (about an axis through Spine_1, along the spine) */
            g_assert_cmpfloat_with_epsilon (angle_between (got[i].m, want[i].m), 20, 0.05);
        }
    }
  edit_clear (&e);
  bfres_clear (&b);
}

/* Root's translation in "Jump" raised by a tenth of the skeleton's size:
 * every bone rises by as much. */
static void
test_bass_translated (void)
{
  Bfres b;
  Edit e = { 0 };
  g_autoptr (GBytes) glb = NULL, edited = NULL;
  g_autoptr (TressGltfDocument) doc = NULL;
  g_autoptr (TressGltfImportAnim) a = NULL;
  g_autofree TressBfresMatrix *got = NULL, *want = NULL;
  guint n;
  float *t;
  double rise;
  int k;

  load_bass (&b);
  if (b.bfres == NULL)
    return;
  rise = 0.1 * b.size;
  glb = export_glb (&b);
  edit_open (&e, glb);
  t = edit_floats (
      &e, edit_accessor (edit_anim (&e, "Jump"), edit_node (&e, "Root"), "translation", "output"),
      &n);
  for (guint i = 0; i < n; i++)
    t[3 * i + 1] += (float)rise;
  edited = edit_to_glb (&e);
  doc = read_doc (edited);
  a = import_one (&b, doc, "Jump", NULL);
  check_against_gltf (&b, edited, a, 30);
  k = skeletal_named (&b, "Jump");
  got = g_new0 (TressBfresMatrix, b.model->skeleton.n_bones);
  want = g_new0 (TressBfresMatrix, b.model->skeleton.n_bones);
  for (int f = 0; f <= a->frame_count; f++)
    {
      spec_pose (&b, a, f, got);
      original_pose (&b, k, f, want);
      for (guint i = 0; i < b.model->skeleton.n_bones; i++)
        {
          g_assert_cmpfloat_with_epsilon (got[i].m[1][3] - want[i].m[1][3], rise,
                                          POSITION_LIMIT * b.size);
          g_assert_cmpfloat_with_epsilon (got[i].m[0][3], want[i].m[0][3], POSITION_LIMIT * b.size);
          g_assert_cmpfloat (angle_between (got[i].m, want[i].m), <=, 0.01);
        }
    }
  edit_clear (&e);
  bfres_clear (&b);
}

/* "Peck" played twice as fast (its key times halved): 20 frames instead of
 * 40, frame f posed as the original's frame 2f. */
static void
test_bass_shortened (void)
{
  Bfres b;
  Edit e = { 0 };
  g_autoptr (GBytes) glb = NULL, edited = NULL;
  g_autoptr (TressGltfDocument) doc = NULL;
  g_autoptr (TressGltfImportAnim) a = NULL;
  g_autofree TressBfresMatrix *got = NULL, *want = NULL;
  guint n;
  float *times;
  int k;
  Worst w = { 0, 0 };

  load_bass (&b);
  if (b.bfres == NULL)
    return;
  glb = export_glb (&b);
  edit_open (&e, glb);
  times = edit_floats (&e, edit_accessor (edit_anim (&e, "Peck"), 0, "rotation", "input"), &n);
  for (guint i = 0; i < n; i++)
    times[i] /= 2;
  /* The accessor's bounds go with its values. */
  json_array_remove_element (
      json_object_get_array_member (
          edit_get (&e, "accessors",
                    edit_accessor (edit_anim (&e, "Peck"), 0, "rotation", "input")),
          "max"),
      0);
  json_array_add_double_element (
      json_object_get_array_member (
          edit_get (&e, "accessors",
                    edit_accessor (edit_anim (&e, "Peck"), 0, "rotation", "input")),
          "max"),
      times[n - 1]);
  edited = edit_to_glb (&e);
  doc = read_doc (edited);
  a = import_one (&b, doc, "Peck", NULL);
  g_assert_cmpint (a->old_frame_count, ==, 40);
  g_assert_cmpint (a->frame_count, ==, 20);
  check_against_gltf (&b, edited, a, 30);
  k = skeletal_named (&b, "Peck");
  got = g_new0 (TressBfresMatrix, b.model->skeleton.n_bones);
  want = g_new0 (TressBfresMatrix, b.model->skeleton.n_bones);
  for (int f = 0; f <= a->frame_count; f++)
    {
      spec_pose (&b, a, f, got);
      original_pose (&b, k, 2 * f, want);
      for (guint i = 0; i < b.model->skeleton.n_bones; i++)
        worst_add (&w, got[i].m, want[i].m, b.size);
    }
  g_test_message ("Peck at twice the speed: against the original at 2f: %.2g of the size, %.2g°",
                  w.position, w.rotation);
  g_assert_cmpfloat (w.position, <=, POSITION_LIMIT);
  g_assert_cmpfloat (w.rotation, <=, ROTATION_LIMIT);
  /* No curve may run past the new end. */
  for (guint i = 0; i < a->n_bones; i++)
    for (guint c = 0; c < TRESS_BFRES_N_CHANNELS; c++)
      if (a->bones[i].curves[c] != NULL
          && tress_bfres_skeleton_find_bone (&b.model->skeleton, a->bones[i].bone) >= 0)
        {
          const TressCurve *curve = a->bones[i].curves[c];

          g_assert_cmpfloat (tress_curve_get_key (curve, tress_curve_get_n_keys (curve) - 1)->frame,
                             <=, 20);
        }
  edit_clear (&e);
  bfres_clear (&b);
}

/* A joint renamed: listed as unmatched, and its bone keeps its original
 * bone animation. */
static void
test_bass_unmatched (void)
{
  Bfres b;
  Edit e = { 0 };
  g_autoptr (GBytes) glb = NULL, edited = NULL;
  g_autoptr (TressGltfDocument) doc = NULL;
  g_autoptr (TressGltfImportAnim) a = NULL;
  gboolean kept = FALSE;

  load_bass (&b);
  if (b.bfres == NULL)
    return;
  glb = export_glb (&b);
  edit_open (&e, glb);
  json_object_set_string_member (edit_get (&e, "nodes", edit_node (&e, "Head")), "name", "Kopf");
  edited = edit_to_glb (&e);
  doc = read_doc (edited);
  a = import_one (&b, doc, "Dead", NULL);
  g_assert_cmpuint (a->unmatched_joints->len, ==, 1);
  g_assert_cmpstr (a->unmatched_joints->pdata[0], ==, "Kopf");
  g_assert_cmpuint (a->n_matched, ==, b.model->skeleton.n_bones - 1);
  for (guint i = 0; i < a->kept_bones->len; i++)
    kept |= g_str_equal (a->kept_bones->pdata[i], "Head");
  g_assert_true (kept);
  /* Bones the model lacks are kept too, and say so. */
  for (guint i = 0; i < a->kept_bones->len; i++)
    if (g_str_has_prefix (a->kept_bones->pdata[i], "Chin"))
      g_assert_cmpstr (a->kept_bones->pdata[i], ==, "Chin (not in Bass)");
  edit_clear (&e);
  bfres_clear (&b);
}

/* A file of the test's own whose animation stores quaternions: a chain of
 * three bones, the middle one turning about Z by up to 270° (past 180°,
 * where a quaternion changes sign), the last one about X. */
static GBytes *
build_quaternion_file (void)
{
  g_autoptr (TressBfresBuilder) builder = tress_bfres_builder_new ("Q_Animation", 0x03040004);
  g_autoptr (GError) error = NULL;
  static const TressBfresBuilderBone bones[] = {
    { "Base", -1, { 1, 1, 1 }, { 0, 0, 0 }, { 0, 0, 0 } },
    { "Arm", 0, { 1, 1, 1 }, { 0, 0.3f, 0 }, { 0, 1, 0 } },
    { "Hand", 1, { 1, 1, 1 }, { 0.2f, 0, 0 }, { 0, 1, 0 } },
  };
  TressKey z[5], w[5], hx[2], hw[2];
  g_autoptr (GBytes) file = NULL;
  g_autoptr (TressBfresAnims) anims = NULL;
  GByteArray *patched;
  gsize size;
  const guint8 *d;

  tress_bfres_builder_begin_model (builder, "Q");
  for (guint i = 0; i < G_N_ELEMENTS (bones); i++)
    tress_bfres_builder_add_model_bone (builder, &bones[i]);
  tress_bfres_builder_begin_anim (builder, TRESS_BFRES_ANIM_SKELETAL, "Turn", 40, TRUE);
  for (guint i = 0; i < 5; i++)
    {
      double angle = i * 270.0 / 4 * G_PI / 180;

      z[i] = (TressKey){ .frame = 10.0 * i, .value = sin (angle / 2) };
      w[i] = (TressKey){ .frame = 10.0 * i, .value = cos (angle / 2) };
    }
  hx[0] = (TressKey){ .frame = 0, .value = 0 };
  hx[1] = (TressKey){ .frame = 40, .value = sin (G_PI / 6) };
  hw[0] = (TressKey){ .frame = 0, .value = 1 };
  hw[1] = (TressKey){ .frame = 40, .value = cos (G_PI / 6) };
  tress_bfres_builder_add_bone (builder, "Arm");
  tress_bfres_builder_add_curve (
      builder, &(TressBfresBuilderCurve){ TRESS_BFRES_CURVE_LINEAR, TRESS_BFRES_FRAME_F32,
                                          TRESS_BFRES_KEY_32, 0x28, NULL, 5, z });
  tress_bfres_builder_add_curve (
      builder, &(TressBfresBuilderCurve){ TRESS_BFRES_CURVE_LINEAR, TRESS_BFRES_FRAME_F32,
                                          TRESS_BFRES_KEY_32, 0x2C, NULL, 5, w });
  tress_bfres_builder_add_bone (builder, "Hand");
  tress_bfres_builder_add_curve (
      builder, &(TressBfresBuilderCurve){ TRESS_BFRES_CURVE_LINEAR, TRESS_BFRES_FRAME_F32,
                                          TRESS_BFRES_KEY_32, 0x20, NULL, 2, hx });
  tress_bfres_builder_add_curve (
      builder, &(TressBfresBuilderCurve){ TRESS_BFRES_CURVE_LINEAR, TRESS_BFRES_FRAME_F32,
                                          TRESS_BFRES_KEY_32, 0x2C, NULL, 2, hw });
  file = tress_bfres_builder_finish (builder, &error);
  g_assert_no_error (error);
  /* The builder writes Euler XYZ animations: make this one quaternions
   * (FSKA flags bits 12-14 = 0). */
  d = g_bytes_get_data (file, &size);
  anims = tress_bfres_anims_parse (d, size, &error);
  g_assert_no_error (error);
  patched = g_byte_array_new ();
  g_byte_array_append (patched, d, (guint)size);
  patched->data[anims->skeletal[0].pos + 0x0E] &= (guint8)~0x70;
  return g_byte_array_free_to_bytes (patched);
}

static void
test_quaternion (void)
{
  g_autoptr (GBytes) file = build_quaternion_file ();
  g_autoptr (GBytes) glb = NULL, edited = NULL;
  g_autoptr (TressGltfDocument) doc = NULL, doc2 = NULL;
  g_autoptr (TressGltfImportAnim) a = NULL, turned = NULL;
  g_autofree TressBfresMatrix *got = NULL, *want = NULL;
  Bfres b;
  Edit e = { 0 };
  Worst w = { 0, 0 };
  int arm;
  double prev[4] = { 0, 0, 0, 0 };

  bfres_open (&b, file, NULL);
  g_assert_true (tress_bfres_animator_get_anims (b.animator)->skeletal[0].rotation_mode
                 == TRESS_BFRES_ROTATION_QUATERNION);
  glb = export_glb (&b);
  doc = read_doc (glb);
  a = import_one (&b, doc, "Turn", NULL);
  g_assert_true (a->rotation_mode == TRESS_BFRES_ROTATION_QUATERNION);
  check_against_gltf (&b, glb, a, 30);
  got = g_new0 (TressBfresMatrix, b.model->skeleton.n_bones);
  want = g_new0 (TressBfresMatrix, b.model->skeleton.n_bones);
  arm = tress_bfres_skeleton_find_bone (&b.model->skeleton, "Arm");
  for (int f = 0; f <= a->frame_count; f++)
    {
      const TressBfresBoneAnimSpec *s = NULL;
      double q[4], dot = 0;

      spec_pose (&b, a, f, got);
      original_pose (&b, 0, f, want);
      for (guint i = 0; i < b.model->skeleton.n_bones; i++)
        worst_add (&w, got[i].m, want[i].m, b.size);
      /* Arm's quaternion never flips sign from one frame to the next. */
      for (guint i = 0; i < a->n_bones; i++)
        if (g_str_equal (a->bones[i].bone, "Arm"))
          s = &a->bones[i];
      g_assert_nonnull (s);
      for (guint c = 0; c < 4; c++)
        {
          const TressCurve *curve = s->curves[TRESS_BFRES_CHANNEL_ROTATE_X + c];

          q[c] = curve != NULL ? tress_curve_evaluate (curve, f)
                               : s->base[TRESS_BFRES_CHANNEL_ROTATE_X + c];
          dot += q[c] * prev[c];
        }
      if (f > 0)
        g_assert_cmpfloat (dot, >, 0);
      memcpy (prev, q, sizeof q);
    }
  g_test_message ("quaternions: against the original %.2g of the size, %.2g°", w.position,
                  w.rotation);
  g_assert_cmpfloat (w.position, <=, POSITION_LIMIT);
  g_assert_cmpfloat (w.rotation, <=, ROTATION_LIMIT);

  /* Arm turned a further 30° about Y: the import follows, in quaternions. */
  edit_open (&e, glb);
  {
    static const double y[3] = { 0, 1, 0 };
    guint n;
    float *q = edit_floats (
        &e, edit_accessor (edit_anim (&e, "Turn"), edit_node (&e, "Arm"), "rotation", "output"),
        &n);
    double extra[4];

    axis_angle (y, 30, extra);
    for (guint i = 0; i < n; i++)
      {
        double v[4] = { q[4 * i], q[4 * i + 1], q[4 * i + 2], q[4 * i + 3] }, r[4];

        quat_mul (v, extra, r);
        for (guint c = 0; c < 4; c++)
          q[4 * i + c] = (float)r[c];
      }
  }
  edited = edit_to_glb (&e);
  doc2 = read_doc (edited);
  turned = import_one (&b, doc2, "Turn", NULL);
  check_against_gltf (&b, edited, turned, 30);
  for (int f = 0; f <= turned->frame_count; f++)
    {
      spec_pose (&b, turned, f, got);
      original_pose (&b, 0, f, want);
      g_assert_cmpfloat_with_epsilon (angle_between (got[arm].m, want[arm].m), 30, 0.05);
    }
  edit_clear (&e);
  bfres_clear (&b);
}

/* A glTF with no joint of the model's names, and one that is too long. */
static void
test_refused (void)
{
  Bfres b;
  Edit e = { 0 };
  g_autoptr (GBytes) glb = NULL, edited = NULL, long_one = NULL;
  g_autoptr (TressGltfDocument) doc = NULL, doc2 = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (TressGltfImport) imp = NULL;
  g_autoptr (TressGltfImportAnim) a = NULL;
  JsonArray *nodes;
  guint n;
  float *times;

  load_bass (&b);
  if (b.bfres == NULL)
    return;
  glb = export_glb (&b);
  edit_open (&e, glb);
  nodes = json_object_get_array_member (e.root, "nodes");
  for (guint i = 0; i < json_array_get_length (nodes); i++)
    {
      g_autofree char *name = g_strdup_printf ("n%u", i);
      json_object_set_string_member (json_array_get_object_element (nodes, i), "name", name);
    }
  edited = edit_to_glb (&e);
  doc = read_doc (edited);
  imp = tress_gltf_import_new (b.bfres, b.model_fres, b.source, doc, NULL, &error);
  g_assert_null (imp);
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE);
  g_assert_nonnull (strstr (error->message, "no joint of the glTF is named after a bone of Bass"));
  g_clear_error (&error);
  edit_clear (&e);

  /* A last key at 10⁹ s: more frames than the import samples. */
  edit_open (&e, glb);
  times = edit_floats (&e, edit_accessor (edit_anim (&e, "Wait"), 0, "rotation", "input"), &n);
  times[n - 1] = 1e9f;
  long_one = edit_to_glb (&e);
  doc2 = read_doc (long_one);
  imp = tress_gltf_import_new (b.bfres, b.model_fres, b.source, doc2, NULL, &error);
  g_assert_no_error (error);
  a = tress_gltf_import_build (imp, tress_gltf_document_find_animation (doc2, "Wait"),
                               (guint)tress_gltf_import_find_anim (imp, "Wait"), &error);
  g_assert_null (a);
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_BAD_COUNT);
  g_assert_nonnull (strstr (error->message, "pass the import's budget"));
  g_test_message ("%s", error->message);
  edit_clear (&e);
  bfres_clear (&b);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gltf-import/bass/unchanged", test_bass_unchanged);
  g_test_add_func ("/gltf-import/bass/rotated", test_bass_rotated);
  g_test_add_func ("/gltf-import/bass/translated", test_bass_translated);
  g_test_add_func ("/gltf-import/bass/shortened", test_bass_shortened);
  g_test_add_func ("/gltf-import/bass/unmatched", test_bass_unmatched);
  g_test_add_func ("/gltf-import/quaternion", test_quaternion);
  g_test_add_func ("/gltf-import/refused", test_refused);
  return g_test_run ();
}
