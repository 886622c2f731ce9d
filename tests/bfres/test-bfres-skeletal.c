/* test-bfres-skeletal.c: rewriting the bone animations of a skeletal animation
 * (tress_bfres_replace_skeletal): identity on every sample animation, the
 * structural edits one by one, restoring, and refusals
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "bfres-skeletal-test.h"
#include "core/tress-yaz0.h"
#include "formats/bfres/tress-bfres-builder.h"
#include "formats/bfres/tress-bfres-pose.h"

static TressBfres *
open_sample (const char *rel, GBytes **file)
{
  g_autoptr (GError) error = NULL;
  GBytes *bytes = tress_test_load_sample (rel);
  TressBfres *b;

  if (bytes == NULL)
    return NULL;
  b = tress_bfres_parse (bytes, rel, &error);
  g_assert_no_error (error);
  if (file != NULL)
    *file = g_bytes_ref (bytes);
  g_bytes_unref (bytes);
  return b;
}

/* Replaces animation @s->anim of @b by @s and checks the result against it. */
static void
replace_and_check (TressBfres *b, Spec *s, double tolerance)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GBytes) before = tress_bfres_get_bfres_bytes (b);
  g_autoptr (GBytes) after = NULL;
  gboolean ok;

  ok = tress_bfres_replace_skeletal (b, s->anim, (TressBfresBoneAnimSpec *)s->bones->data,
                                     s->bones->len, s->frame_count, tolerance, notes, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  after = tress_bfres_get_bfres_bytes (b);
  skt_check_rewrite (before, after, s, tolerance, notes);
}

/* Every bone of the FSKA named @name has the same flags, and each of its
 * components the same value (or none), in @a and @b at every frame and half
 * frame; bones matched by name, @skip left out. */
static void
assert_same_poses (GBytes *a, GBytes *b, const char *name, const char *skip)
{
  gsize sa, sb;
  const guint8 *da = g_bytes_get_data (a, &sa), *db = g_bytes_get_data (b, &sb);
  RefFska fa, fb;
  RefBoneAnim *ba = skt_read_bones (da, ref_fska_find (da, name), &fa);
  RefBoneAnim *bb = skt_read_bones (db, ref_fska_find (db, name), &fb);

  for (guint i = 0; i < fa.n_bones; i++)
    {
      const RefBoneAnim *other = NULL;

      for (guint k = 0; k < fb.n_bones; k++)
        if (strcmp (bb[k].name, ba[i].name) == 0)
          other = &bb[k];
      if (skip != NULL && strcmp (ba[i].name, skip) == 0)
        {
          g_assert_null (other);
          continue;
        }
      if (other == NULL)
        g_error ("%s: bone \"%s\" is gone", name, ba[i].name);
      /* The flags too: the hints of bits 24-27 follow the values. */
      g_assert_cmphex (other->flags, ==, ba[i].flags);
      for (guint c = 0; c < TRESS_BFRES_N_CHANNELS; c++)
        for (double f = 0; f <= fa.frame_count; f += 0.5)
          {
            double va = 0, vb = 0;
            gboolean ha = ref_bone_value (da, &ba[i], skt_target[c], f, &va);
            gboolean hb = ref_bone_value (db, other, skt_target[c], f, &vb);

            g_assert_cmpint (ha, ==, hb);
            if (ha && va != vb)
              g_error ("%s/%s %s at frame %g: %.9g became %.9g", name, ba[i].name, skt_label[c], f,
                       va, vb);
          }
    }
  skt_free_bones (ba, fa.n_bones);
  skt_free_bones (bb, fb.n_bones);
}

/* ---- identity ------------------------------------------------------------------ */

typedef struct
{
  const guint8 *d;
  gsize fska;
  RefBoneAnim *bones;
  double frame;
} PoseCtx;

static gboolean
pose_value (gpointer user_data, guint bone_anim, const TressBfresAnimCurveRef *ref, double *value)
{
  PoseCtx *ctx = user_data;

  return ref_bone_value (ctx->d, &ctx->bones[bone_anim], ref->target, ctx->frame, value);
}

/* The local transforms the preview's pose code gives @model's skeleton under
 * the FSKA named @name of @fres at every frame, into @out. */
static void
pose_all (GBytes *fres, const char *name, const TressBfresSkeleton *sk, GArray *out)
{
  gsize size;
  const guint8 *d = g_bytes_get_data (fres, &size);
  g_autoptr (GError) error = NULL;
  g_autoptr (TressBfresAnims) anims = tress_bfres_anims_parse (d, size, &error);
  const TressBfresSkeletalAnim *a = NULL;
  g_autofree int *map = g_new (int, sk->n_bones + 1);
  g_autofree TressBfresSrt *srt = g_new0 (TressBfresSrt, sk->n_bones + 1);
  PoseCtx ctx = { d, ref_fska_find (d, name), NULL, 0 };
  RefFska f;

  g_assert_no_error (error);
  for (guint i = 0; i < anims->n_skeletal; i++)
    if (strcmp (anims->skeletal[i].name, name) == 0)
      a = &anims->skeletal[i];
  g_assert_nonnull (a);
  ctx.bones = skt_read_bones (d, ctx.fska, &f);
  for (guint i = 0; i < sk->n_bones; i++)
    {
      map[i] = -1;
      for (guint k = 0; k < a->n_bone_anims; k++)
        if (strcmp (a->bone_anims[k].name, sk->bones[i].name) == 0)
          map[i] = (int)k;
    }
  for (ctx.frame = 0; ctx.frame <= a->frame_count; ctx.frame += 0.5)
    {
      tress_bfres_pose_srt (sk, a, map, pose_value, &ctx, srt);
      g_array_append_vals (out, srt, sk->n_bones);
    }
  skt_free_bones (ctx.bones, f.n_bones);
}

static void
check_identity (const char *rel)
{
  g_autoptr (GBytes) file = NULL;
  g_autoptr (TressBfres) b = open_sample (rel, &file);
  g_autoptr (GBytes) original = NULL;
  g_autoptr (TressBfresModels) models = NULL;
  g_autoptr (GString) growth = g_string_new (NULL);
  guint n_skeletal = 0;

  if (b == NULL)
    return;
  original = tress_bfres_get_bfres_bytes (b);
  models = tress_bfres_models_parse (g_bytes_get_data (original, NULL), g_bytes_get_size (original),
                                     NULL);
  for (guint i = 0; i < tress_bfres_get_n_anims (b); i++)
    {
      TressBfresAnimInfo info;
      g_autoptr (Spec) s = NULL;
      g_autoptr (GBytes) before = tress_bfres_get_bfres_bytes (b);
      g_autoptr (GBytes) after = NULL;
      gsize size, fska;
      const guint8 *d0 = g_bytes_get_data (before, &size), *d1;

      tress_bfres_get_anim_info (b, i, &info);
      if (strcmp (info.kind, "Skeletal") != 0)
        continue;
      n_skeletal++;
      s = spec_from_file (b, i);
      replace_and_check (b, s, 0);
      after = tress_bfres_get_bfres_bytes (b);
      d1 = g_bytes_get_data (after, NULL);
      assert_same_poses (before, after, s->anim_name, NULL);
      /* Nothing that was there changed but the file size and the two
       * offsets to the new arrays: every curve keeps its arrays. */
      fska = ref_fska_find (d0, s->anim_name);
      for (gsize k = 0; k < size; k++)
        if (d0[k] != d1[k] && !(k >= 0x0C && k < 0x10) && !(k >= fska + 0x20 && k < fska + 0x24)
            && !(k >= fska + 0x28 && k < fska + 0x2C))
          g_error ("%s: byte 0x%" G_GSIZE_MODIFIER "x changed", s->anim_name, k);
      g_string_append_printf (growth, " %s +%" G_GSIZE_FORMAT, s->anim_name,
                              g_bytes_get_size (after) - size);
      /* The preview's pose code sees the same poses on the file's skeletons. */
      for (guint m = 0; models != NULL && m < models->n_models; m++)
        {
          const TressBfresSkeleton *sk = &models->models[m].skeleton;
          g_autoptr (GArray) pa = g_array_new (FALSE, TRUE, sizeof (TressBfresSrt));
          g_autoptr (GArray) pb = g_array_new (FALSE, TRUE, sizeof (TressBfresSrt));

          pose_all (before, s->anim_name, sk, pa);
          pose_all (after, s->anim_name, sk, pb);
          g_assert_cmpuint (pa->len, ==, pb->len);
          g_assert_cmpmem (pa->data, pa->len * sizeof (TressBfresSrt), pb->data,
                           pb->len * sizeof (TressBfresSrt));
        }
    }
  g_assert_cmpuint (n_skeletal, >, 0);
  g_test_message ("%s: identity growth per animation:%s", rel, growth->str);

  /* Saved and read again: the same bytes, the same animations. */
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (GBytes) saved = tress_bfres_serialize (b, &error);
    g_autoptr (TressBfres) again = NULL;
    g_autoptr (GBytes) fres = tress_bfres_get_bfres_bytes (b);
    g_autoptr (GBytes) fres_again = NULL;

    g_assert_no_error (error);
    again = tress_bfres_parse (saved, rel, &error);
    g_assert_no_error (error);
    fres_again = tress_bfres_get_bfres_bytes (again);
    tress_test_assert_bytes_equal (fres_again, fres);
    g_assert_cmpuint (tress_bfres_get_n_curves (again), ==, tress_bfres_get_n_curves (b));
  }
}

static void
test_identity_bass (void)
{
  check_identity ("bfres/Animal_Bass_Animation.bfres");
}

static void
test_identity_dog (void)
{
  check_identity ("bfres/Animal_Dog_Animation.bfres");
}

/* A compressed file stays compressed, and what it holds is the rewrite. */
static void
test_yaz0 (void)
{
  g_autoptr (GBytes) file = NULL;
  g_autoptr (TressBfres) b = open_sample ("bfres/Animal_Bass_Animation.sbfres", &file);
  g_autoptr (Spec) s = NULL;
  g_autoptr (GBytes) saved = NULL;
  g_autoptr (GBytes) inner = NULL;
  g_autoptr (GBytes) fres = NULL;
  g_autoptr (GError) error = NULL;

  if (b == NULL)
    return;
  g_assert_cmpstr (tress_bfres_get_container (b), ==, "Yaz0");
  s = spec_from_file (b, skt_anim_index (b, "Wait"));
  g_array_remove_index (s->bones, spec_find_bone (s, "Tail"));
  replace_and_check (b, s, 0);
  g_assert_cmpstr (tress_bfres_get_container (b), ==, "Yaz0");
  saved = tress_bfres_serialize (b, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (saved, NULL), 4, "Yaz0", 4);
  inner = tress_yaz0_decompress (g_bytes_get_data (saved, NULL), g_bytes_get_size (saved),
                                 G_MAXSIZE, &error);
  g_assert_no_error (error);
  fres = tress_bfres_get_bfres_bytes (b);
  tress_test_assert_bytes_equal (inner, fres);
}

/* ---- structural edits ------------------------------------------------------------- */

/* A Hermite or Linear curve through @n values at @frames. */
static TressCurve *
make_curve (guint n, const double *frames, const double *values, TressInterp interp)
{
  TressCurve *c = tress_curve_new ();

  for (guint i = 0; i < n; i++)
    {
      TressKey k = { 0 };

      k.frame = frames[i];
      k.value = values[i];
      k.in_slope = k.out_slope
          = i + 1 < n ? (values[i + 1] - values[i]) / (frames[i + 1] - frames[i]) : 0;
      k.interp = interp;
      tress_curve_append_key (c, &k);
    }
  return c;
}

static void
test_remove_bone (void)
{
  g_autoptr (TressBfres) b = open_sample ("bfres/Animal_Bass_Animation.bfres", NULL);
  g_autoptr (Spec) s = NULL;
  g_autoptr (GBytes) before = NULL;
  g_autoptr (GBytes) after = NULL;

  if (b == NULL)
    return;
  before = tress_bfres_get_bfres_bytes (b);
  s = spec_from_file (b, skt_anim_index (b, "Dead"));
  g_assert_nonnull (
      spec_bone (s, spec_find_bone (s, "Chin"))->curves[TRESS_BFRES_CHANNEL_ROTATE_Z]);
  g_array_remove_index (s->bones, spec_find_bone (s, "Chin"));
  replace_and_check (b, s, 0);
  after = tress_bfres_get_bfres_bytes (b);
  assert_same_poses (before, after, "Dead", "Chin");
  g_assert_cmpint (tress_bfres_find_curve (b, "Dead/Chin/Rotate Z"), ==, -1);
  g_assert_cmpint (tress_bfres_find_curve (b, "Dead/Head/Rotate Z"), >=, 0);
}

static void
test_add_bones (void)
{
  g_autoptr (TressBfres) b = open_sample ("bfres/Animal_Bass_Animation.bfres", NULL);
  g_autoptr (Spec) s = NULL;
  TressBfresBoneAnimSpec *bone;
  const double frames[] = { 0, 10, 24 }, values[] = { 0.1, -0.3, 0.1 };

  if (b == NULL)
    return;
  s = spec_from_file (b, skt_anim_index (b, "Move"));
  /* Spine_3: a bone of the skeleton (its name in the pool) that Move leaves alone. */
  g_assert_cmpint (spec_find_bone (s, "Spine_3"), ==, -1);
  bone = spec_add_bone (s, 3, "Spine_3");
  bone->base[TRESS_BFRES_CHANNEL_TRANSLATE_X] = 0.3f;
  spec_set_curve (s, bone, TRESS_BFRES_CHANNEL_ROTATE_Y,
                  make_curve (3, frames, values, TRESS_INTERP_HERMITE));
  /* A name the file does not have: appended, and the bind pose's translation. */
  bone = spec_add_bone (s, s->bones->len, "Fin_Dorsal");
  bone->bind_translation = TRUE;
  bone->base[TRESS_BFRES_CHANNEL_ROTATE_Z] = 0.5f;
  replace_and_check (b, s, 0);
  /* The model reads the new curves at once. */
  {
    int i = tress_bfres_find_curve (b, "Move/Spine_3/Rotate Y");

    g_assert_cmpint (i, >=, 0);
    g_assert_cmpfloat_with_epsilon (tress_bfres_evaluate (b, (guint)i, 10), -0.3, 1e-4);
  }
  /* Spine_3's segment scale compensation came from the skeleton: set. */
  {
    g_autoptr (GBytes) fres = tress_bfres_get_bfres_bytes (b);
    const guint8 *d = g_bytes_get_data (fres, NULL);
    RefFska f;
    RefBoneAnim *bones = skt_read_bones (d, ref_fska_find (d, "Move"), &f);

    g_assert_cmpstr (bones[3].name, ==, "Spine_3");
    g_assert_true (bones[3].flags & (1u << 23));
    g_assert_cmpstr (bones[f.n_bones - 1].name, ==, "Fin_Dorsal");
    g_assert_false (bones[f.n_bones - 1].flags & (1u << 23));
    skt_free_bones (bones, f.n_bones);
  }
}

static void
test_constant_and_curve (void)
{
  g_autoptr (TressBfres) b = open_sample ("bfres/Animal_Bass_Animation.bfres", NULL);
  g_autoptr (Spec) s = NULL;
  TressBfresBoneAnimSpec *bone;
  const double frames[] = { 0, 15, 30 }, values[] = { 1, 1.25, 1 };

  if (b == NULL)
    return;
  s = spec_from_file (b, skt_anim_index (b, "Dead"));
  /* A component that had no curve gets one: the animation's types. */
  bone = spec_bone (s, spec_find_bone (s, "Skl_Root"));
  g_assert_null (bone->curves[TRESS_BFRES_CHANNEL_SCALE_Y]);
  spec_set_curve (s, bone, TRESS_BFRES_CHANNEL_SCALE_Y,
                  make_curve (3, frames, values, TRESS_INTERP_LINEAR));
  /* A curve becomes a constant: its base value. */
  bone = spec_bone (s, spec_find_bone (s, "Head"));
  g_assert_nonnull (bone->curves[TRESS_BFRES_CHANNEL_ROTATE_X]);
  bone->curves[TRESS_BFRES_CHANNEL_ROTATE_X] = NULL;
  bone->base[TRESS_BFRES_CHANNEL_ROTATE_X] = 0.25f;
  replace_and_check (b, s, 0);
  g_assert_cmpint (tress_bfres_find_curve (b, "Dead/Head/Rotate X"), ==, -1);
  {
    TressBfresCurveInfo info;
    int i = tress_bfres_find_curve (b, "Dead/Skl_Root/Scale Y");

    g_assert_cmpint (i, >=, 0);
    tress_bfres_get_curve_info (b, (guint)i, &info);
    g_assert_cmpint (info.curve_type, ==, TRESS_BFRES_CURVE_LINEAR);
    g_assert_cmpint (info.frame_type, ==, TRESS_BFRES_FRAME_U8);
    g_assert_cmpint (info.key_type, ==, TRESS_BFRES_KEY_S16);
    g_assert_cmpfloat_with_epsilon (tress_bfres_evaluate (b, (guint)i, 7.5), 1.125, 1e-4);
  }
}

static void
test_frame_count (void)
{
  g_autoptr (TressBfres) b = open_sample ("bfres/Animal_Bass_Animation.bfres", NULL);
  const double frames[] = { 0, 12.5, 280, 300 }, values[] = { 0, 0.2, -0.2, 0 };

  if (b == NULL)
    return;
  /* Longer: the curves stay, a new one reaches the new end. */
  {
    g_autoptr (Spec) s = spec_from_file (b, skt_anim_index (b, "Dead"));
    const double f2[] = { 0, 40 }, v2[] = { 0, 1 };

    s->frame_count = 40;
    spec_set_curve (s, spec_bone (s, 0), TRESS_BFRES_CHANNEL_TRANSLATE_X,
                    make_curve (2, f2, v2, TRESS_INTERP_LINEAR));
    replace_and_check (b, s, 0);
  }
  /* Past 255 frames and between frames: u8 frames become s10.5. */
  {
    g_autoptr (Spec) s = spec_from_file (b, skt_anim_index (b, "Jump"));
    g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
    g_autoptr (GBytes) before = tress_bfres_get_bfres_bytes (b);
    g_autoptr (GBytes) after = NULL;
    g_autoptr (GError) error = NULL;
    TressBfresBoneAnimSpec *head = spec_bone (s, spec_find_bone (s, "Head"));

    s->frame_count = 300;
    spec_set_curve (s, head, TRESS_BFRES_CHANNEL_ROTATE_Y,
                    make_curve (4, frames, values, TRESS_INTERP_HERMITE));
    g_assert_true (tress_bfres_replace_skeletal (b, s->anim,
                                                 (TressBfresBoneAnimSpec *)s->bones->data,
                                                 s->bones->len, 300, 0, notes, &error));
    g_assert_no_error (error);
    after = tress_bfres_get_bfres_bytes (b);
    skt_check_rewrite (before, after, s, 0, notes);
    g_assert_true (skt_has_note (notes, "Head Rotate Y: frames u8 → s10.5 to hold frame 12.5"));
  }
  /* Shorter. */
  {
    g_autoptr (Spec) s = spec_from_file (b, skt_anim_index (b, "Peck"));

    s->frame_count = 10;
    for (guint i = 0; i < s->bones->len; i++)
      for (guint c = 0; c < TRESS_BFRES_N_CHANNELS; c++)
        spec_bone (s, i)->curves[c] = NULL;
    replace_and_check (b, s, 0);
  }
}

static void
test_quaternion (void)
{
  g_autoptr (TressBfresBuilder) builder = tress_bfres_builder_new ("Quat", 0x03040004);
  TressKey keys[2] = { { .frame = 0, .value = 0 }, { .frame = 20, .value = 0.5 } };
  TressBfresBuilderCurve c = {
    TRESS_BFRES_CURVE_CUBIC, TRESS_BFRES_FRAME_U8, TRESS_BFRES_KEY_S16, 0x20, NULL, 2, keys, 0, 0
  };
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) built = NULL;
  g_autoptr (GBytes) patched = NULL;
  g_autoptr (TressBfres) b = NULL;
  g_autoptr (Spec) s = NULL;
  guint8 *d;
  gsize size, fska;
  const double frames[] = { 0, 10, 20 };
  const double w[] = { 1, 0.9238795, 0.7071068 }, z[] = { 0, 0.3826834, 0.7071068 };
  TressBfresBoneAnimSpec *bone;

  tress_bfres_builder_begin_anim (builder, TRESS_BFRES_ANIM_SKELETAL, "Turn", 20, TRUE);
  tress_bfres_builder_add_bone (builder, "Root");
  tress_bfres_builder_add_curve (builder, &c);
  tress_bfres_builder_begin_anim (builder, TRESS_BFRES_ANIM_SKELETAL, "Turn_Euler", 20, TRUE);
  tress_bfres_builder_add_bone (builder, "Root");
  tress_bfres_builder_add_curve (builder, &c);
  built = tress_bfres_builder_finish (builder, &error);
  g_assert_no_error (error);
  /* The builder writes Euler animations: "Turn" is made a quaternion one
   * (FSKA flags bits 12-14 = 0). */
  size = g_bytes_get_size (built);
  d = g_memdup2 (g_bytes_get_data (built, NULL), size);
  fska = ref_fska_find (d, "Turn");
  d[fska + 0x0E] &= ~0x70u;
  patched = g_bytes_new_take (d, size);
  b = tress_bfres_parse (patched, "quat.bfres", &error);
  g_assert_no_error (error);

  s = spec_from_file (b, skt_anim_index (b, "Turn"));
  g_assert_false (s->euler);
  bone = spec_bone (s, 0);
  bone->curves[TRESS_BFRES_CHANNEL_ROTATE_X] = NULL;
  spec_set_curve (s, bone, TRESS_BFRES_CHANNEL_ROTATE_Z,
                  make_curve (3, frames, z, TRESS_INTERP_LINEAR));
  spec_set_curve (s, bone, TRESS_BFRES_CHANNEL_ROTATE_W,
                  make_curve (3, frames, w, TRESS_INTERP_LINEAR));
  replace_and_check (b, s, 0.0001);
  g_assert_cmpint (tress_bfres_find_curve (b, "Turn/Root/Rotate W"), >=, 0);

  /* An Euler animation has no Rotate W. */
  {
    g_autoptr (Spec) e = spec_from_file (b, skt_anim_index (b, "Turn_Euler"));
    g_autoptr (GBytes) before = tress_bfres_get_bfres_bytes (b);
    g_autoptr (GBytes) after = NULL;

    g_assert_true (e->euler);
    spec_set_curve (e, spec_bone (e, 0), TRESS_BFRES_CHANNEL_ROTATE_W,
                    make_curve (3, frames, w, TRESS_INTERP_LINEAR));
    g_assert_false (tress_bfres_replace_skeletal (
        b, e->anim, (TressBfresBoneAnimSpec *)e->bones->data, e->bones->len, 20, 0, NULL, &error));
    g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
    g_assert_nonnull (strstr (error->message, "Rotate W"));
    after = tress_bfres_get_bfres_bytes (b);
    tress_test_assert_bytes_equal (after, before);
  }
}

/* Values finer than an s8 curve's steps: with a tolerance the keys widen
 * (and a note says so), without one they stay s8 on their nearest steps. */
static void
test_widening (void)
{
  g_autoptr (TressBfres) b = open_sample ("bfres/Animal_Bass_Animation.bfres", NULL);

  if (b == NULL)
    return;
  for (guint pass = 0; pass < 2; pass++)
    {
      double tolerance = pass == 0 ? 0.0005 : 0;
      g_autoptr (Spec) s = spec_from_file (b, skt_anim_index (b, pass == 0 ? "Dead" : "Put_Down"));
      TressBfresBoneAnimSpec *bone
          = spec_bone (s, spec_find_bone (s, pass == 0 ? "Spine_2" : "Head"));
      TressBfresChannel ch
          = pass == 0 ? TRESS_BFRES_CHANNEL_ROTATE_X : TRESS_BFRES_CHANNEL_ROTATE_Y;
      TressCurve *curve = tress_curve_copy (bone->curves[ch]);
      g_autofree char *path = g_strdup_printf ("%s/%s/%s", s->anim_name, bone->bone,
                                               pass == 0 ? "Rotate X" : "Rotate Y");
      TressBfresCurveInfo info;

      g_assert_nonnull (curve);
      tress_bfres_get_curve_info (b, (guint)tress_bfres_find_curve (b, path), &info);
      g_assert_cmpint (info.key_type, ==, TRESS_BFRES_KEY_S8);
      for (guint i = 0; i < tress_curve_get_n_keys (curve); i++)
        {
          TressKey *k = tress_curve_get_key (curve, i);

          k->value += 0.2 * sin (i * 1.7);
          k->in_gap = 0;
          k->origin = 0;
        }
      spec_set_curve (s, bone, ch, curve);
      replace_and_check (b, s, tolerance);
      tress_bfres_get_curve_info (b, (guint)tress_bfres_find_curve (b, path), &info);
      if (pass == 0)
        g_assert_cmpint (info.key_type, !=, TRESS_BFRES_KEY_S8);
      else
        g_assert_cmpint (info.key_type, ==, TRESS_BFRES_KEY_S8);
    }
}

static void
check_restore (const char *rel)
{
  g_autoptr (GBytes) file = NULL;
  g_autoptr (TressBfres) b = open_sample (rel, &file);
  g_autoptr (GBytes) before = NULL;
  g_autoptr (GBytes) after = NULL;
  g_autoptr (GBytes) again = NULL;
  g_autoptr (GBytes) saved = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (Spec) s = NULL;
  guint n_curves;

  if (b == NULL)
    return;
  n_curves = tress_bfres_get_n_curves (b);
  before = tress_bfres_get_bfres_bytes (b);
  s = spec_from_file (b, skt_anim_index (b, "Dead"));
  g_array_remove_index (s->bones, 1);
  replace_and_check (b, s, 0);
  after = tress_bfres_get_bfres_bytes (b);
  g_assert_cmpuint (tress_bfres_get_n_curves (b), <, n_curves);

  g_assert_true (tress_bfres_restore_fres (b, before, &error));
  g_assert_no_error (error);
  again = tress_bfres_get_bfres_bytes (b);
  tress_test_assert_bytes_equal (again, before);
  g_assert_cmpuint (tress_bfres_get_n_curves (b), ==, n_curves);
  saved = tress_bfres_serialize (b, &error);
  g_assert_no_error (error);
  tress_test_assert_bytes_equal (saved, file);

  /* Redo, then an ordinary edit on top works on the rewritten file. */
  g_assert_true (tress_bfres_restore_fres (b, after, &error));
  {
    int i = tress_bfres_find_curve (b, "Dead/Head/Rotate Y");
    g_autoptr (TressCurve) c = tress_format_bfres.curves->get_curve (b, (guint)i);

    tress_curve_get_key (c, 3)->value += 0.01;
    g_assert_true (tress_format_bfres.curves->set_curve (b, (guint)i, c, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpfloat_with_epsilon (
        tress_bfres_evaluate (b, (guint)i, tress_curve_get_key (c, 3)->frame),
        tress_curve_get_key (c, 3)->value, 0.001);
  }

  /* Bytes that are no FRES, or a container: refused, the model as it was. */
  {
    g_autoptr (GBytes) now = tress_bfres_get_bfres_bytes (b);
    g_autoptr (GBytes) now_again = NULL;
    g_autoptr (GBytes) junk = g_bytes_new_static ("FRES and nothing", 16);
    g_autoptr (GBytes) packed
        = tress_yaz0_compress (g_bytes_get_data (before, NULL), g_bytes_get_size (before), NULL);

    g_assert_false (tress_bfres_restore_fres (b, junk, &error));
    g_assert_nonnull (error);
    g_clear_error (&error);
    g_assert_false (tress_bfres_restore_fres (b, packed, &error));
    g_assert_error (error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE);
    now_again = tress_bfres_get_bfres_bytes (b);
    tress_test_assert_bytes_equal (now_again, now);
    g_assert_cmpint (tress_bfres_find_curve (b, "Dead/Skl_Root/Rotate X"), ==, -1);
  }
}

static void
test_restore (void)
{
  check_restore ("bfres/Animal_Bass_Animation.bfres");
  check_restore ("bfres/Animal_Bass_Animation.sbfres");
}

/* ---- refusals -------------------------------------------------------------------- */

/* @s's request is refused with @code and @words, the file untouched. */

/* ---- several at once ---------------------------------------------------------------- */

/* Every skeletal animation of @b changed (made from the file as read, as
 * tress-cli import-gltf does): twice as long, its first bone gone, a curve
 * reaching the new end on its new first bone and a bone the file lacks. */
static GPtrArray *
batch_specs (TressBfres *b)
{
  GPtrArray *specs = g_ptr_array_new_with_free_func ((GDestroyNotify)spec_free);

  for (guint i = 0; i < tress_bfres_get_n_anims (b); i++)
    {
      TressBfresAnimInfo info;
      Spec *s;
      TressBfresBoneAnimSpec *bone;

      tress_bfres_get_anim_info (b, i, &info);
      if (strcmp (info.kind, "Skeletal") != 0)
        continue;
      s = spec_from_file (b, i);
      s->frame_count = 2 * MAX (s->frame_count, 1);
      if (s->bones->len > 1)
        g_array_remove_index (s->bones, 0);
      if (s->bones->len > 0)
        {
          const double frames[] = { 0, s->frame_count / 2.0, s->frame_count };
          const double values[] = { 0.1 * i, -0.3, 0.2 };

          spec_set_curve (s, spec_bone (s, 0), TRESS_BFRES_CHANNEL_ROTATE_Z,
                          make_curve (3, frames, values, TRESS_INTERP_HERMITE));
        }
      bone = spec_add_bone (s, s->bones->len, "Fin_Batch");
      bone->bind_translation = TRUE;
      bone->base[TRESS_BFRES_CHANNEL_SCALE_X] = bone->base[TRESS_BFRES_CHANNEL_SCALE_Y]
          = bone->base[TRESS_BFRES_CHANNEL_SCALE_Z] = 1;
      bone->base[TRESS_BFRES_CHANNEL_ROTATE_W] = 1;
      g_ptr_array_add (specs, s);
    }
  g_assert_cmpuint (specs->len, >, 1);
  return specs;
}

/* tress_bfres_replace_skeletals gives the bytes and notes of replacing the
 * animations one by one; a failing one leaves the file untouched. */
static void
check_batch (GBytes *file, const char *name)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TressBfres) one = tress_bfres_parse (file, name, &error);
  g_autoptr (TressBfres) all = NULL;
  g_autoptr (GPtrArray) specs = NULL;
  g_autoptr (GPtrArray) notes_one = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) notes_all = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GArray) items = g_array_new (FALSE, TRUE, sizeof (TressBfresSkeletalReplacement));
  g_autoptr (GBytes) bytes_one = NULL;
  g_autoptr (GBytes) bytes_all = NULL;
  g_autoptr (GBytes) before = NULL;
  g_autoptr (GBytes) after = NULL;
  g_autoptr (GBytes) saved_one = NULL;
  g_autoptr (GBytes) saved_all = NULL;
  guint failed = G_MAXUINT;

  g_assert_no_error (error);
  all = tress_bfres_parse (file, name, &error);
  g_assert_no_error (error);
  specs = batch_specs (one);
  for (guint i = 0; i < specs->len; i++)
    {
      Spec *s = specs->pdata[i];
      TressBfresSkeletalReplacement r = { s->anim,       (TressBfresBoneAnimSpec *)s->bones->data,
                                          s->bones->len, s->frame_count,
                                          0.001,         notes_all };

      g_assert_true (
          tress_bfres_replace_skeletal (one, s->anim, (TressBfresBoneAnimSpec *)s->bones->data,
                                        s->bones->len, s->frame_count, 0.001, notes_one, &error));
      g_assert_no_error (error);
      g_array_append_val (items, r);
    }

  /* The last one refused (a frame count no curve allows): nothing changes. */
  before = tress_bfres_get_bfres_bytes (all);
  g_array_index (items, TressBfresSkeletalReplacement, items->len - 1).frame_count = -1;
  g_assert_false (tress_bfres_replace_skeletals (all, (TressBfresSkeletalReplacement *)items->data,
                                                 items->len, &failed, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_assert_cmpuint (failed, ==, items->len - 1);
  g_assert_cmpuint (notes_all->len, ==, 0);
  after = tress_bfres_get_bfres_bytes (all);
  tress_test_assert_bytes_equal (after, before);

  g_array_index (items, TressBfresSkeletalReplacement, items->len - 1).frame_count
      = ((Spec *)specs->pdata[specs->len - 1])->frame_count;
  g_assert_true (tress_bfres_replace_skeletals (all, (TressBfresSkeletalReplacement *)items->data,
                                                items->len, NULL, &error));
  g_assert_no_error (error);
  bytes_one = tress_bfres_get_bfres_bytes (one);
  bytes_all = tress_bfres_get_bfres_bytes (all);
  g_assert_cmpuint (g_bytes_get_size (bytes_all), >, g_bytes_get_size (before));
  tress_test_assert_bytes_equal (bytes_all, bytes_one);
  g_assert_cmpuint (notes_all->len, ==, notes_one->len);
  for (guint i = 0; i < notes_one->len; i++)
    g_assert_cmpstr (notes_all->pdata[i], ==, notes_one->pdata[i]);
  g_assert_cmpuint (tress_bfres_get_n_curves (all), ==, tress_bfres_get_n_curves (one));
  saved_one = tress_bfres_serialize (one, &error);
  g_assert_no_error (error);
  saved_all = tress_bfres_serialize (all, &error);
  g_assert_no_error (error);
  tress_test_assert_bytes_equal (saved_all, saved_one);
  g_test_message ("%s: %u animations, %u notes, %" G_GSIZE_FORMAT " → %" G_GSIZE_FORMAT " bytes",
                  name, specs->len, notes_one->len, g_bytes_get_size (before),
                  g_bytes_get_size (bytes_all));
}

static void
test_batch_bass (void)
{
  g_autoptr (GBytes) file = tress_test_load_sample ("bfres/Animal_Bass_Animation.bfres");

  if (file == NULL)
    return;
  check_batch (file, "bfres/Animal_Bass_Animation.bfres");
}

static void
test_batch_generated (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) file = tress_bfres_build_test_file (12, 200, 6, 24, &error);

  g_assert_no_error (error);
  check_batch (file, "generated.bfres");
}

static void
assert_refused (TressBfres *b, Spec *s, guint anim, int frame_count, double tolerance, int code,
                const char *words)
{
  g_autoptr (GBytes) before = tress_bfres_get_bfres_bytes (b);
  g_autoptr (GBytes) after = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  guint n_curves = tress_bfres_get_n_curves (b);

  g_assert_false (tress_bfres_replace_skeletal (
      b, anim, s != NULL ? (TressBfresBoneAnimSpec *)s->bones->data : NULL,
      s != NULL ? s->bones->len : 0, frame_count, tolerance, notes, &error));
  g_assert_error (error, TRESS_ERROR, code);
  if (strstr (error->message, words) == NULL)
    g_error ("\"%s\" does not say \"%s\"", error->message, words);
  g_assert_cmpuint (notes->len, ==, 0);
  after = tress_bfres_get_bfres_bytes (b);
  tress_test_assert_bytes_equal (after, before);
  g_assert_cmpuint (tress_bfres_get_n_curves (b), ==, n_curves);
}

static void
test_refusals (void)
{
  g_autoptr (TressBfres) b = open_sample ("bfres/Animal_Bass_Animation.bfres", NULL);
  const guint refused = TRESS_ERROR_REFUSED;
  guint dead;

  if (b == NULL)
    return;
  dead = skt_anim_index (b, "Dead");
  assert_refused (b, NULL, tress_bfres_get_n_anims (b), 30, 0, refused, "No animation");
  {
    g_autoptr (Spec) s = spec_from_file (b, dead);
    TressKey *k;

    assert_refused (b, s, dead, -1, 0, refused, "frame count");
    assert_refused (b, s, dead, 30, NAN, refused, "tolerance");
    assert_refused (b, s, dead, 30, -1, refused, "tolerance");
    /* Keys past the frame count (the file's curves reach frame 30). */
    assert_refused (b, s, dead, 29, 0, refused, "outside the animation's frames");
    k = tress_curve_get_key (spec_bone (s, 1)->curves[TRESS_BFRES_CHANNEL_ROTATE_X], 2);
    k->value = NAN;
    assert_refused (b, s, dead, 30, 0, refused, "key 2");
    k->value = 0;
    k->frame
        = tress_curve_get_key (spec_bone (s, 1)->curves[TRESS_BFRES_CHANNEL_ROTATE_X], 1)->frame;
    assert_refused (b, s, dead, 30, 0, refused, "not after key 1");
  }
  {
    g_autoptr (Spec) s = spec_from_file (b, dead);
    TressCurve *c = spec_bone (s, 2)->curves[TRESS_BFRES_CHANNEL_ROTATE_Y];

    tress_curve_get_key (c, 0)->frame = -0.5;
    assert_refused (b, s, dead, 30, 0, refused, "outside the animation's frames");
    tress_curve_get_key (c, 0)->frame = 0;
    for (guint i = 0; i < tress_curve_get_n_keys (c); i++)
      tress_curve_get_key (c, i)->interp = TRESS_INTERP_STEP;
    assert_refused (b, s, dead, 30, 0, refused, "Cubic");
    tress_curve_get_key (c, 0)->interp = TRESS_INTERP_LINEAR;
    assert_refused (b, s, dead, 30, 0, refused, "one kind");
    g_array_set_size (c->keys, 0);
    assert_refused (b, s, dead, 30, 0, refused, "no keys");
  }
  {
    g_autoptr (Spec) s = spec_from_file (b, dead);

    spec_bone (s, 3)->base[TRESS_BFRES_CHANNEL_SCALE_Y] = INFINITY;
    assert_refused (b, s, dead, 30, 0, refused, "base value");
    spec_bone (s, 3)->base[TRESS_BFRES_CHANNEL_SCALE_Y] = 1;
    spec_bone (s, 3)->bone = spec_bone (s, 2)->bone;
    assert_refused (b, s, dead, 30, 0, refused, "twice");
    spec_bone (s, 3)->bone = "";
    assert_refused (b, s, dead, 30, 0, refused, "bone name");
    spec_bone (s, 3)->bone = NULL;
    assert_refused (b, s, dead, 30, 0, refused, "bone name");
  }
  {
    g_autoptr (Spec) s = spec_from_file (b, dead);
    const double f[] = { 0, 30 }, v[] = { 0, 1 };

    /* Skl_Root has translation curves. */
    spec_bone (s, 1)->bind_translation = TRUE;
    assert_refused (b, s, dead, 30, 0, refused, "bind pose");
    spec_bone (s, 1)->bind_translation = FALSE;
    spec_set_curve (s, spec_bone (s, 1), TRESS_BFRES_CHANNEL_ROTATE_W,
                    make_curve (2, f, v, TRESS_INTERP_LINEAR));
    assert_refused (b, s, dead, 30, 0, refused, "Rotate W");
  }
  /* More bones than the u16 count holds; more keys than the u16 count. */
  {
    g_autoptr (Spec) s = spec_from_file (b, dead);
    g_autoptr (TressCurve) many = tress_curve_new ();

    g_array_set_size (s->bones, 65536);
    assert_refused (b, s, dead, 30, 0, refused, "16-bit count");
    g_array_set_size (s->bones, 1);
    for (guint i = 0; i < 65536; i++)
      {
        TressKey k = { .frame = i, .interp = TRESS_INTERP_LINEAR };

        tress_curve_append_key (many, &k);
      }
    spec_bone (s, 0)->curves[TRESS_BFRES_CHANNEL_SCALE_X] = many;
    assert_refused (b, s, dead, 70000, 0, refused, "16-bit key count");
  }
  /* Not a skeletal animation; a version before 3.4. */
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (GBytes) demo = tress_bfres_build_demo (&error);
    g_autoptr (TressBfres) d = tress_bfres_parse (demo, "demo.bfres", &error);
    g_autoptr (TressBfresBuilder) old = tress_bfres_builder_new ("Old", 0x03030000);
    g_autoptr (GBytes) old_bytes = NULL;
    g_autoptr (TressBfres) o = NULL;
    TressKey keys[2] = { { .frame = 0 }, { .frame = 10, .value = 1 } };
    TressBfresBuilderCurve c = {
      TRESS_BFRES_CURVE_CUBIC, TRESS_BFRES_FRAME_U8, TRESS_BFRES_KEY_S16, 0x20, NULL, 2, keys, 0, 0
    };

    g_assert_no_error (error);
    assert_refused (d, NULL, 1, 60, 0, refused, "not a skeletal one");
    tress_bfres_builder_begin_anim (old, TRESS_BFRES_ANIM_SKELETAL, "Wave", 10, TRUE);
    tress_bfres_builder_add_bone (old, "Root");
    tress_bfres_builder_add_curve (old, &c);
    old_bytes = tress_bfres_builder_finish (old, &error);
    g_assert_no_error (error);
    o = tress_bfres_parse (old_bytes, "old.bfres", &error);
    g_assert_no_error (error);
    assert_refused (o, NULL, 0, 10, 0, TRESS_ERROR_UNSUPPORTED, "3.4");
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/bfres/skeletal/identity/bass", test_identity_bass);
  g_test_add_func ("/bfres/skeletal/identity/dog", test_identity_dog);
  g_test_add_func ("/bfres/skeletal/yaz0", test_yaz0);
  g_test_add_func ("/bfres/skeletal/remove-bone", test_remove_bone);
  g_test_add_func ("/bfres/skeletal/add-bones", test_add_bones);
  g_test_add_func ("/bfres/skeletal/constant-and-curve", test_constant_and_curve);
  g_test_add_func ("/bfres/skeletal/frame-count", test_frame_count);
  g_test_add_func ("/bfres/skeletal/quaternion", test_quaternion);
  g_test_add_func ("/bfres/skeletal/widening", test_widening);
  g_test_add_func ("/bfres/skeletal/restore", test_restore);
  g_test_add_func ("/bfres/skeletal/refusals", test_refusals);
  g_test_add_func ("/bfres/skeletal/batch/bass", test_batch_bass);
  g_test_add_func ("/bfres/skeletal/batch/generated", test_batch_generated);
  return g_test_run ();
}
