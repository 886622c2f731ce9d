/* test-bfres-setpose.c: `tress-cli set-pose` on the BFRES samples, each
 * result read with the independent decoder of the format page
 * (bfres-setpose-check.h): the bone's local rotation at the frame within a
 * stored step, everything else as it was, validate clean. Then seeded random
 * poses over every shared BFRES sample (TRESS_TEST_SEED=N repeats a run),
 * and bad arguments.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "bfres-setpose-check.h"

#define BASS "bfres/Animal_Bass_Animation.bfres"

static char *
tmp (const char *name)
{
  return g_build_filename (tress_test_tmpdir (), name, NULL);
}

/* Frames of the curve at @h. */
static gboolean
has_key_at (const guint8 *d, gsize h, double frame)
{
  RefCurve c;

  ref_curve_read (d, h, TRUE, &c);
  for (guint k = 0; k < c.n; k++)
    if (ref_frame (&c, k) == frame)
      return TRUE;
  return FALSE;
}

/* The rotation @bone of @anim plays at @frame, in degrees, plus @delta. */
static void
rotation_near (const guint8 *d, const char *anim, const char *bone, double frame,
               const double delta[3], double out[3])
{
  RefFska f;
  RefBoneAnim ba = { 0 };

  g_assert_true (sp_bone (d, ref_fska_find (d, anim), bone, &f, &ba));
  for (guint k = 0; k < 3; k++)
    out[k] = sp_value (d, &ba, 0x20 + 4 * k, frame, NULL) * 180 / G_PI + delta[k];
  g_free (ba.name);
}

/* Spine_2 of "Dead" has curves for Rotate X, Y and Z: once at a frame where
 * the three have keys (they move), once at a frame where none has one (keys
 * are inserted). */
static void
test_bass_spine2 (void)
{
  g_autoptr (GBytes) in = tress_test_load_sample (BASS);
  g_autoptr (GBytes) model = tress_test_load_sample ("bfres/Animal_Bass.bfres");
  g_autofree char *path = tress_test_sample_path (BASS);
  const guint8 *d;
  RefFska f;
  RefBoneAnim ba = { 0 };
  double with_key = -1, without_key = -1;
  gsize h[3];

  if (in == NULL || model == NULL)
    return;
  d = g_bytes_get_data (in, NULL);
  g_assert_true (sp_bone (d, ref_fska_find (d, "Dead"), "Spine_2", &f, &ba));
  for (guint k = 0; k < 3; k++)
    {
      h[k] = sp_curve (d, &ba, 0x20 + 4 * k);
      g_assert_cmpuint (h[k], !=, 0);
    }
  for (int fr = 1; fr < f.frame_count; fr++)
    {
      guint keys = 0;

      for (guint k = 0; k < 3; k++)
        keys += has_key_at (d, h[k], fr);
      if (keys == 3 && with_key < 0)
        with_key = fr;
      if (keys == 0 && without_key < 0)
        without_key = fr;
    }
  g_free (ba.name);
  g_assert_cmpfloat (with_key, >, 0);
  g_assert_cmpfloat (without_key, >, 0);

  for (guint pass = 0; pass < 2; pass++)
    {
      const double delta[3] = { 1.5, -2, 2.5 };
      SpCase c = { .anim = "Dead", .bone = "Spine_2", .frame = pass == 0 ? with_key : without_key };
      g_autofree char *out = tmp (pass == 0 ? "dead-key.bfres" : "dead-nokey.bfres");
      g_autofree char *so = NULL, *se = NULL;
      g_autoptr (GBytes) res = NULL;

      rotation_near (d, c.anim, c.bone, c.frame, delta, c.rotate);
      g_assert_cmpint (sp_run (path, &c, FALSE, out, &so, &se), ==, 0);
      g_assert_nonnull (strstr (so, pass == 0 ? "key moved" : "key inserted"));
      res = tress_test_read_file (out);
      sp_check (in, res, g_bytes_get_data (model, NULL), &c);
      g_assert_cmpuint (c.changed, ==, 3);
      g_assert_cmpuint (c.added, ==, 0);
      sp_assert_valid (out);
    }
}

/* Spine_2 of "Jump" has a Rotate Y curve only: X and Z are base values.
 * Asking for a new X and Z adds their curves (the BoneAnim grows); asking
 * for the base X leaves it without one. */
static void
test_bass_adds_curves (void)
{
  g_autoptr (GBytes) in = tress_test_load_sample (BASS);
  g_autoptr (GBytes) model = tress_test_load_sample ("bfres/Animal_Bass.bfres");
  g_autofree char *path = tress_test_sample_path (BASS);
  const guint8 *d;

  if (in == NULL || model == NULL)
    return;
  d = g_bytes_get_data (in, NULL);
  for (guint pass = 0; pass < 2; pass++)
    {
      const double delta[3] = { pass == 0 ? 4 : 0, -3, pass == 0 ? 5 : 0 };
      SpCase c = { .anim = "Jump", .bone = "Spine_2", .frame = 17 };
      g_autofree char *out = tmp (pass == 0 ? "jump-add.bfres" : "jump-y.bfres");
      g_autofree char *so = NULL;
      g_autoptr (GBytes) res = NULL;
      RefFska f;
      RefBoneAnim ba = { 0 };

      rotation_near (d, c.anim, c.bone, c.frame, delta, c.rotate);
      g_assert_cmpint (sp_run (path, &c, FALSE, out, &so, NULL), ==, 0);
      res = tress_test_read_file (out);
      sp_check (in, res, g_bytes_get_data (model, NULL), &c);
      g_assert_cmpuint (c.added, ==, pass == 0 ? 2 : 0);
      g_assert_cmpuint (c.changed, ==, 1);
      g_assert_true (sp_bone (g_bytes_get_data (res, NULL),
                              ref_fska_find (g_bytes_get_data (res, NULL), "Jump"), "Spine_2", &f,
                              &ba));
      g_assert_cmpuint (ba.n_curves, ==, pass == 0 ? 3 : 1);
      g_assert_cmpuint ((ba.flags >> 6) & 0x3FF, ==, pass == 0 ? 0x38u : 0x10u);
      g_free (ba.name);
      if (pass == 0)
        g_assert_nonnull (strstr (so, "curve added"));
      else
        g_assert_null (strstr (so, "curve added"));
      sp_assert_valid (out);
    }
}

/* A value outside an s8 curve's stored range is refused with its cost in
 * numbers (nothing written), and stored in wider keys with --widen. */
static void
test_refusal_and_widen (void)
{
  g_autoptr (GBytes) in = tress_test_load_sample (BASS);
  g_autoptr (GBytes) model = tress_test_load_sample ("bfres/Animal_Bass.bfres");
  g_autofree char *path = tress_test_sample_path (BASS);
  g_autofree char *out = tmp ("dead-wide.bfres"), *so = NULL, *se = NULL;
  g_autoptr (GBytes) res = NULL;
  const double delta[3] = { 40, 0, 0 };
  SpCase c = { .anim = "Dead", .bone = "Spine_2", .frame = 12 };

  if (in == NULL || model == NULL)
    return;
  rotation_near (g_bytes_get_data (in, NULL), c.anim, c.bone, c.frame, delta, c.rotate);
  g_assert_cmpint (sp_run (path, &c, FALSE, out, &so, &se), ==, 1);
  g_assert_nonnull (strstr (se, "Rotate X"));
  g_assert_nonnull (strstr (se, "s8 keys"));
  g_assert_nonnull (strstr (se, "s16 keys would keep them within"));
  g_assert_nonnull (strstr (se, "--widen"));
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  g_clear_pointer (&so, g_free);
  g_assert_cmpint (sp_run (path, &c, TRUE, out, &so, NULL), ==, 0);
  res = tress_test_read_file (out);
  sp_check (in, res, g_bytes_get_data (model, NULL), &c);
  sp_assert_valid (out);
}

/* A quaternion animation: the Bass's "Jump" with its flags saying so
 * (bits 12-14: 0). The four components are set to the rotation's
 * quaternion, on the side nearest what played (Rotate W gets a curve too). */
static void
test_quaternion (void)
{
  g_autoptr (GBytes) in = tress_test_load_sample (BASS);
  g_autoptr (GBytes) model = tress_test_load_sample ("bfres/Animal_Bass.bfres");
  g_autofree char *path = tmp ("quaternion.bfres"), *out = tmp ("quaternion-set.bfres");
  g_autofree char *so = NULL;
  g_autoptr (GBytes) qin = NULL, res = NULL;
  guint8 *d;
  gsize size, fska;
  guint32 flags;
  SpCase c = { .anim = "Jump", .bone = "Spine_2", .frame = 17, .rotate = { 10, 20, 30 } };

  if (in == NULL || model == NULL)
    return;
  {
    const guint8 *src = g_bytes_get_data (in, &size);

    d = g_memdup2 (src, size);
  }
  fska = ref_fska_find (d, "Jump");
  flags = ref_u32 (d, fska + 0x0C) & ~(7u << 12);
  d[fska + 0x0C] = flags >> 24, d[fska + 0x0D] = flags >> 16, d[fska + 0x0E] = flags >> 8,
           d[fska + 0x0F] = flags;
  qin = g_bytes_new_take (d, size);
  g_assert_true (g_file_set_contents (path, (const char *)d, (gssize)size, NULL));
  g_assert_cmpint (sp_run (path, &c, FALSE, out, &so, NULL), ==, 0);
  g_assert_nonnull (strstr (so, "Rotate W: curve added"));
  res = tress_test_read_file (out);
  sp_check (qin, res, g_bytes_get_data (model, NULL), &c);
  g_assert_true (c.quaternion);
  g_assert_cmpuint (c.added, ==, 3);
  sp_assert_valid (out);
}

/* Spine_2 takes its translation from the bind pose (its BoneAnims store
 * none): the skeleton in the file's own model gives it, the bind translation
 * becomes the stored base and the components asked for get curves; one left
 * at the bind pose stays without. */
static void
test_translation_from_bind (void)
{
  g_autoptr (GBytes) in = tress_test_load_sample (BASS);
  g_autoptr (GBytes) model = tress_test_load_sample ("bfres/Animal_Bass.bfres");
  g_autofree char *path = tress_test_sample_path (BASS);
  g_autofree char *out = tmp ("translate.bfres"), *so = NULL;
  g_autoptr (GBytes) res = NULL;
  SpCase c = {
    .anim = "Dead", .bone = "Spine_2", .frame = 12, .no_rotate = TRUE, .has_translate = TRUE
  };
  double bind[REF_BASE_SLOTS];
  const guint8 *d;
  RefFska f;
  RefBoneAnim ba = { 0 };

  if (in == NULL || model == NULL)
    return;
  d = g_bytes_get_data (in, NULL);
  g_assert_true (sp_bind (g_bytes_get_data (model, NULL), "Spine_2", bind));
  g_assert_true (sp_bone (d, ref_fska_find (d, "Dead"), "Spine_2", &f, &ba));
  g_assert_false (ba.flags & 0x20);
  g_free (ba.name);
  c.translate[0] = bind[7] + 0.5;
  c.translate[1] = bind[8];
  c.translate[2] = bind[9] - 0.25;
  g_assert_cmpint (sp_run (path, &c, FALSE, out, &so, NULL), ==, 0);
  res = tress_test_read_file (out);
  sp_check (in, res, g_bytes_get_data (model, NULL), &c);
  g_assert_cmpuint (c.added, ==, 2);
  d = g_bytes_get_data (res, NULL);
  g_assert_true (sp_bone (d, ref_fska_find (d, "Dead"), "Spine_2", &f, &ba));
  g_assert_true (ba.flags & 0x20);
  for (guint k = 0; k < 3; k++)
    g_assert_cmpfloat (ba.base_values[7 + k], ==, (float)bind[7 + k]);
  /* Rotate X Y Z as before, Translate X and Z new. */
  g_assert_cmpuint ((ba.flags >> 6) & 0x3FF, ==, 0x38u | 0x80u | 0x200u);
  g_free (ba.name);
  sp_assert_valid (out);
}

/* Asking for what already plays at a key changes nothing: the same bytes. */
static void
test_unchanged (void)
{
  g_autoptr (GBytes) in = tress_test_load_sample (BASS);
  g_autofree char *path = tress_test_sample_path (BASS);
  g_autofree char *out = tmp ("unchanged.bfres"), *so = NULL;
  g_autoptr (GBytes) res = NULL;
  const double none[3] = { 0, 0, 0 };
  SpCase c = { .anim = "Dead", .bone = "Spine_2", .frame = 1 };

  if (in == NULL)
    return;
  rotation_near (g_bytes_get_data (in, NULL), c.anim, c.bone, c.frame, none, c.rotate);
  g_assert_cmpint (sp_run (path, &c, FALSE, out, &so, NULL), ==, 0);
  g_assert_nonnull (strstr (so, "Rotate X: unchanged"));
  g_assert_null (strstr (so, "key moved"));
  res = tress_test_read_file (out);
  tress_test_assert_bytes_equal (in, res);
}

static guint32
test_seed (void)
{
  const char *env = g_getenv ("TRESS_TEST_SEED");

  return env != NULL ? (guint32)g_ascii_strtoull (env, NULL, 10) : (guint32)g_test_rand_int ();
}

/* Random bones, frames (whole, half) and rotations near what plays there
 * (a few degrees off, and sometimes a whole turn away, which the stored
 * angle must not take), on every shared BFRES sample with skeletal
 * animations. A refusal must say why with --widen; --widen then stores it. */
static void
test_random (void)
{
  static const char *const samples[] = { BASS, "bfres/Animal_Dog_Animation.bfres" };
  guint32 seed = test_seed ();
  g_autoptr (GRand) r = g_rand_new_with_seed (seed);
  g_autoptr (GBytes) model = tress_test_load_sample ("bfres/Animal_Bass.bfres");
  guint runs = 0, refused = 0, added = 0;

  g_test_message ("seed %u", seed);
  for (guint s = 0; s < G_N_ELEMENTS (samples); s++)
    {
      g_autoptr (GBytes) in = tress_test_load_sample (samples[s]);
      g_autofree char *path = tress_test_sample_path (samples[s]);
      const guint8 *d;
      guint n_anims;
      gsize group;

      if (in == NULL)
        return;
      d = g_bytes_get_data (in, NULL);
      group = ref_group (d, 2, &n_anims);
      g_assert_cmpuint (n_anims, >, 0);
      for (guint round = 0; round < (s == 0 ? 10u : 6u); round++)
        {
          guint k = 1 + (guint)g_rand_int_range (r, 0, (gint32)n_anims);
          g_autofree char *anim = ref_group_name (d, group, k);
          gsize fska = ref_group_data (d, group, k);
          RefFska f;
          RefBoneAnim ba = { 0 };
          SpCase c = { .anim = anim };
          g_autofree char *out
              = g_strdup_printf ("%s/random-%u-%u.bfres", tress_test_tmpdir (), s, round);
          g_autofree char *so = NULL, *se = NULL;
          g_autoptr (GBytes) res = NULL;
          double delta[3];
          int rc;

          ref_fska_read (d, fska, &f);
          if (f.n_bones == 0)
            continue;
          ref_bone_anim_read (d, &f, (guint)g_rand_int_range (r, 0, (gint32)f.n_bones), &ba);
          c.bone = ba.name;
          c.frame = g_rand_int_range (r, 0, f.frame_count + 1);
          if (g_rand_int_range (r, 0, 4) == 0 && c.frame < f.frame_count)
            c.frame += 0.5;
          for (guint a = 0; a < 3; a++)
            delta[a]
                = g_rand_double_range (r, -3, 3)
                  + 360.0 * (g_rand_int_range (r, 0, 4) == 0 ? g_rand_int_range (r, -1, 2) : 0);
          rotation_near (d, anim, c.bone, c.frame, delta, c.rotate);
          if (g_getenv ("TRESS_TEST_VERBOSE") != NULL)
            g_printerr ("set-pose %s %s %s %.17g --rotate %.17g %.17g %.17g\n", path, anim, c.bone,
                        c.frame, c.rotate[0], c.rotate[1], c.rotate[2]);
          rc = sp_run (path, &c, FALSE, out, &so, &se);
          if (rc == 1)
            {
              /* Refused: why, in numbers, and nothing written. */
              g_assert_nonnull (strstr (se, "--widen"));
              g_assert_true (g_regex_match_simple ("[0-9]", se, 0, 0));
              g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
              refused++;
              g_clear_pointer (&so, g_free);
              rc = sp_run (path, &c, TRUE, out, &so, NULL);
            }
          if (rc != 0)
            g_error ("set-pose %s %s %s %g failed (%d): %s", samples[s], anim, c.bone, c.frame, rc,
                     se);
          res = tress_test_read_file (out);
          sp_check (in, res, s == 0 && model != NULL ? g_bytes_get_data (model, NULL) : NULL, &c);
          added += c.added;
          sp_assert_valid (out);
          g_free (ba.name);
          runs++;
        }
    }
  g_test_message ("%u poses set (%u refused first and widened, %u curves added)", runs, refused,
                  added);
  g_assert_cmpuint (runs, >=, 10);
}

/* Bad arguments: a clear message, a non-zero exit, nothing written. */
static void
test_bad_arguments (void)
{
  g_autofree char *path = tress_test_sample_path (BASS);
  g_autofree char *out = tmp ("bad.bfres");
  static const struct
  {
    const char *args[10];
    int rc;
    const char *says;
  } cases[] = {
    { { "Dead", "NoSuchBone", "3", "--rotate", "1", "2", "3" }, 2, "NoSuchBone" },
    { { "NoSuchAnim", "Spine_2", "3", "--rotate", "1", "2", "3" }, 2, "NoSuchAnim" },
    { { "Dead", "Spine_2", "500", "--rotate", "1", "2", "3" }, 2, "frame 500 lies outside" },
    { { "Dead", "Spine_2", "-1", "--rotate", "1", "2", "3" }, 2, "frame -1 lies outside" },
    { { "Dead", "Spine_2", "nan", "--rotate", "1", "2", "3" }, 2, "FRAME" },
    { { "Dead", "Spine_2", "3", "--rotate", "1", "nan", "3" }, 2, "--rotate Y" },
    { { "Dead", "Spine_2", "3", "--rotate", "1", "inf", "3" }, 2, "--rotate Y" },
    { { "Dead", "Spine_2", "3", "--rotate", "1", "2" }, 2, "three numbers" },
    { { "Dead", "Spine_2", "3", "--rotate", "1", "2", "--widen" }, 2, "--rotate Z" },
    { { "Dead", "Spine_2", "3" }, 2, "at least one of" },
    { { "Dead", "Spine_2", "3", "--scale", "1e39", "1", "1" }, 2, "32-bit float" },
    { { "Dead", "Spine_2", "3", "--translate", "1", "2", "3", "--model", "/nonexistent" },
      2,
      "--model /nonexistent" },
  };

  if (path == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *argv[16] = { "set-pose", "-o", out, path };
      guint n = 4;
      g_autofree char *se = NULL;

      for (guint k = 0; k < G_N_ELEMENTS (cases[i].args) && cases[i].args[k] != NULL; k++)
        argv[n++] = cases[i].args[k];
      g_assert_cmpint (tress_test_run_cli (argv, NULL, &se), ==, cases[i].rc);
      if (strstr (se, cases[i].says) == NULL)
        g_error ("case %u: '%s' not in: %s", i, cases[i].says, se);
      g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/bfres/setpose/bass-spine2", test_bass_spine2);
  g_test_add_func ("/bfres/setpose/bass-adds-curves", test_bass_adds_curves);
  g_test_add_func ("/bfres/setpose/refusal-and-widen", test_refusal_and_widen);
  g_test_add_func ("/bfres/setpose/unchanged", test_unchanged);
  g_test_add_func ("/bfres/setpose/quaternion", test_quaternion);
  g_test_add_func ("/bfres/setpose/translation-from-bind", test_translation_from_bind);
  g_test_add_func ("/bfres/setpose/random", test_random);
  g_test_add_func ("/bfres/setpose/bad-arguments", test_bad_arguments);
  return g_test_run ();
}
