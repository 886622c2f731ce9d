/* test-bfres-cli.c: the BFRES commands of tress-cli, as a user runs them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "bfres-test-common.h"
#include "formats/bfres/tress-bfres-builder.h"
#include "tress-test-utils.h"

static char *
tmp (const char *name)
{
  return g_build_filename (tress_test_tmpdir (), name, NULL);
}

static void
test_demo_and_curves (void)
{
  g_autofree char *demo = tmp ("demo.bfres"), *wide = tmp ("wide.bfres");
  g_autofree char *out = NULL, *err = NULL;
  const char *gen[] = { "generate-demo", "bfres", "-o", demo, NULL };
  const char *curves[] = { "curves", demo, NULL };
  const char *eval[] = { "eval", demo, "Wave/Arm_L/Rotate Z", "15", "45", NULL };
  const char *settype[] = { "bfres-set-type", demo, "1",  "--curve-type", "Linear",
                            "--key-type",     "32", "-o", wide,           NULL };
  const char *notarc[] = { "bfres-archive", demo, NULL };

  g_assert_cmpint (tress_test_run_cli (gen, &out, NULL), ==, 0);
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (tress_test_run_cli (curves, &out, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "Wave/Arm_L/Rotate Z"));
  g_assert_nonnull (strstr (out, "Blink/Eyelid"));
  g_assert_nonnull (strstr (out, "Eyes/Face/_a0"));
  g_clear_pointer (&out, g_free);
  {
    const char *dump[] = { "dump", demo, NULL };
    g_assert_cmpint (tress_test_run_cli (dump, &out, NULL), ==, 0);
    g_assert_nonnull (strstr (out, "\"texture\": \"Eye_Closed\""));
    g_assert_nonnull (strstr (out, "\"raw_keys\""));
    g_clear_pointer (&out, g_free);
  }
  g_assert_cmpint (tress_test_run_cli (eval, &out, NULL), ==, 0);
  {
    g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
    g_auto (GStrv) a = g_strsplit (lines[0], "\t", -1);
    g_auto (GStrv) b = g_strsplit (lines[1], "\t", -1);
    g_assert_cmpfloat (g_ascii_strtod (a[1], NULL), >, 1.1);
    g_assert_cmpfloat (g_ascii_strtod (b[1], NULL), <, -1.1);
  }
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (tress_test_run_cli (settype, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "Linear, u8 frames, 32-bit keys"));
  g_clear_pointer (&err, g_free);
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (tress_test_run_cli (notarc, &out, &err), ==, 1);
  g_assert_nonnull (strstr (err, "not inside a SARC"));
}

static void
test_switch_refused (void)
{
  g_autofree char *path = tmp ("switch.bfres"), *err = NULL, *out = NULL;
  guint8 sw[0x80] = "FRES    ";
  const char *info[] = { "info", path, NULL };

  sw[0x0C] = 0xFF, sw[0x0D] = 0xFE;
  g_assert_true (g_file_set_contents (path, (const char *)sw, sizeof sw, NULL));
  g_assert_cmpint (tress_test_run_cli (info, &out, &err), ==, 2);
  g_assert_nonnull (strstr (err, "Switch"));
}

static void
test_sample_edit (void)
{
  g_autofree char *sample = tress_test_sample_path ("bfres/Animal_Bass_Animation.sbfres");
  g_autofree char *edited = tmp ("edited.sbfres"), *out = NULL;

  if (sample == NULL)
    return;
  {
    const char *set[] = { "set-key", sample, "Dead/Skl_Root/Rotate Y", "3",
                          "--value", "0.5",  "--requantize",           "-o",
                          edited,    NULL };
    const char *eval[] = { "eval", edited, "Dead/Skl_Root/Rotate Y", "3", NULL };
    const char *validate[] = { "validate", edited, NULL };
    g_autofree char *o1 = NULL, *o2 = NULL;
    g_assert_cmpint (tress_test_run_cli (set, &o1, NULL), ==, 0);
    g_assert_nonnull (strstr (o1, "quantization error"));
    g_assert_cmpint (tress_test_run_cli (eval, &out, NULL), ==, 0);
    g_assert_cmpfloat_with_epsilon (g_ascii_strtod (strchr (out, '\t') + 1, NULL), 0.5, 1e-3);
    g_assert_cmpint (tress_test_run_cli (validate, &o2, NULL), ==, 0);
    g_assert_nonnull (strstr (o2, "0 errors"));
  }
}

/* A key past the animation's end is refused until the frame count is raised
 * from the CLI; the count is only ever raised. */
static void
test_raise_frame_count (void)
{
  g_autofree char *demo = tmp ("fc-demo.bfres"), *raised = tmp ("fc-raised.bfres"),
                  *moved = tmp ("fc-moved.bfres"), *again = tmp ("fc-again.bfres");
  g_autofree char *out = NULL, *err = NULL;
  const char *gen[] = { "generate-demo", "bfres", "-o", demo, NULL };
  const char *past[]
      = { "set-key", demo, "Wave/Arm_L/Rotate Z", "4", "--frame", "90", "--value", "0.5", "-o",
          moved,     NULL };
  const char *raise[] = { "bfres-set-frame-count", demo, "Wave", "120", "-o", raised, NULL };
  const char *set[]
      = { "set-key", raised, "Wave/Arm_L/Rotate Z", "4", "--frame", "90", "--value", "0.5", "-o",
          moved,     NULL };
  const char *eval[] = { "eval", moved, "Wave/Arm_L/Rotate Z", "90", NULL };
  const char *curves[] = { "curves", moved, NULL };
  const char *lower[] = { "bfres-set-frame-count", raised, "Wave", "100", "-o", again, NULL };
  const char *by_curve[]
      = { "bfres-set-frame-count", raised, "Wave/Arm_R/Rotate X", "200", "-o", again, NULL };

  g_assert_cmpint (tress_test_run_cli (gen, &out, NULL), ==, 0);
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (tress_test_run_cli (past, &out, &err), ==, 1);
  g_assert_false (g_file_test (moved, G_FILE_TEST_EXISTS));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (tress_test_run_cli (raise, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "Wave: 120 frames (was 60)"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (tress_test_run_cli (set, &out, &err), ==, 0);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (tress_test_run_cli (eval, &out, NULL), ==, 0);
  g_assert_cmpfloat_with_epsilon (g_ascii_strtod (strchr (out, '\t') + 1, NULL), 0.5, 1e-3);
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (tress_test_run_cli (curves, &out, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "Wave/Arm_L/Rotate Z\tCubic, u8 frames, s16 keys\t5 keys\t0..90"));
  g_clear_pointer (&out, g_free);

  /* Lowering is refused and writes nothing. */
  g_assert_cmpint (tress_test_run_cli (lower, &out, &err), ==, 1);
  g_assert_nonnull (strstr (err, "only raised"));
  g_assert_false (g_file_test (again, G_FILE_TEST_EXISTS));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  /* A curve path names its animation too. */
  g_assert_cmpint (tress_test_run_cli (by_curve, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "Wave: 200 frames (was 120)"));
}

/* tress-cli eval prints what the stored coefficients give, evaluated directly
 * (bfres-test-common.h), at every key, mid-segment and 0.37 into segments:
 * every cubic and linear curve of the Bass animation, and every 16th curve of
 * the Dog file plus its f32-key curves (one process per curve). */
static void
test_eval_matches_stored (void)
{
  static const char *const files[]
      = { "bfres/Animal_Bass_Animation.bfres", "bfres/Animal_Dog_Animation.bfres" };
  guint checked = 0;

  for (guint s = 0; s < G_N_ELEMENTS (files); s++)
    {
      g_autofree char *path = tress_test_sample_path (files[s]);
      g_autoptr (GBytes) bytes = tress_test_load_sample (files[s]);
      g_autoptr (GError) error = NULL;
      g_autoptr (TressBfres) b = NULL;
      g_autoptr (GBytes) raw = NULL;
      const guint8 *d;
      guint n;

      if (bytes == NULL)
        return;
      b = tress_bfres_parse (bytes, files[s], &error);
      g_assert_no_error (error);
      raw = tress_bfres_get_bfres_bytes (b);
      d = g_bytes_get_data (raw, NULL);
      n = tress_bfres_get_n_curves (b);
      for (guint i = 0; i < n; i++)
        {
          TressBfresCurveInfo info;
          RefCurve rc;
          g_autofree double *frames = NULL;
          g_autoptr (GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
          g_autofree char *out = NULL;
          g_auto (GStrv) lines = NULL;
          guint m;

          g_assert_true (tress_bfres_get_curve_info (b, i, &info));
          if (info.curve_type > TRESS_BFRES_CURVE_LINEAR
              || (n > 100 && i % 16 != 0 && info.key_type != TRESS_BFRES_KEY_32))
            continue;
          ref_curve_read (d, info.header_pos, TRUE, &rc);
          frames = g_new (double, 3 * (gsize)rc.n);
          m = ref_probe_frames (&rc, frames);
          g_ptr_array_add (args, g_strdup ("eval"));
          g_ptr_array_add (args, g_strdup (path));
          g_ptr_array_add (args, g_strdup_printf ("%u", i));
          for (guint j = 0; j < m; j++)
            {
              char buf[G_ASCII_DTOSTR_BUF_SIZE];
              g_ptr_array_add (args, g_strdup (g_ascii_dtostr (buf, sizeof buf, frames[j])));
            }
          g_ptr_array_add (args, NULL);
          g_assert_cmpint (tress_test_run_cli ((const char *const *)args->pdata, &out, NULL), ==,
                           0);
          lines = g_strsplit (out, "\n", -1);
          g_assert_cmpuint (g_strv_length (lines), ==, m + 1);
          for (guint j = 0; j < m; j++)
            {
              double want = ref_eval (&rc, frames[j]);
              const char *tab = strchr (lines[j], '\t');

              g_assert_nonnull (tab);
              g_assert_cmpfloat_with_epsilon (g_ascii_strtod (tab + 1, NULL), want,
                                              ref_float_precision (want));
            }
          checked++;
        }
    }
  g_assert_cmpuint (checked, ==, 84 + 4464 / 16 + 3);
}

/* The example the segments' own ends change: frame 7.4 of this curve lies in
 * a segment whose end misses the next key by a raw step. */
static void
test_eval_between_keys (void)
{
  g_autofree char *sample = tress_test_sample_path ("bfres/Animal_Bass_Animation.bfres");
  g_autofree char *out = NULL;
  const char *eval[] = { "eval", sample, "Put_Down/Spine_3/Rotate Y", "7.4", NULL };

  if (sample == NULL)
    return;
  g_assert_cmpint (tress_test_run_cli (eval, &out, NULL), ==, 0);
  g_assert_cmpstr (out, ==, "7.4\t0.144664633\n");
}

static gsize
file_size (const char *path)
{
  GStatBuf st;

  g_assert_cmpint (g_stat (path, &st), ==, 0);
  return (gsize)st.st_size;
}

/* "… the file grows by N bytes" in @text: N. */
static guint64
stated_growth (const char *text)
{
  const char *at = strstr (text, "the file grows by ");

  g_assert_nonnull (at);
  return g_ascii_strtoull (at + strlen ("the file grows by "), NULL, 10);
}

/* set-key keeps the file's precision and says what it stores; --widen widens
 * at the cost it states; a frame between the stored ones needs --widen. */
static void
test_set_key_precision (void)
{
  g_autofree char *sample = tress_test_sample_path ("bfres/Animal_Bass_Animation.bfres");
  g_autofree char *kept = tmp ("kept.bfres"), *wide = tmp ("wide.bfres"),
                  *frames = tmp ("frames.bfres");
  const char *curve = "Put_Down/Spine_3/Rotate Y";

  if (sample == NULL)
    return;
  {
    const char *set[] = { "set-key", sample, curve, "2", "--value", "0.156", "-o", kept, NULL };
    g_autofree char *out = NULL;

    g_autoptr (GBytes) before = tress_test_load_sample ("bfres/Animal_Bass_Animation.bfres");
    g_autoptr (GBytes) after = NULL;
    g_autoptr (TressBfres) b = NULL;
    g_autoptr (GError) error = NULL;
    g_autofree char *data = NULL;
    gsize len = 0;
    TressBfresCurveInfo info;
    RefCurve rc;

    g_assert_cmpint (tress_test_run_cli (set, &out, NULL), ==, 0);
    g_assert_nonnull (strstr (out, "key 2: frame 2, stored value 0.156741963 (step 0.00299537)"));
    g_assert_cmpuint (file_size (kept), ==, file_size (sample));
    g_assert_cmpuint (file_size (kept), ==, 26260);
    /* Read independently: s8 keys, scale and offset kept, only the segments
     * meeting at key 2 (1 and 2) written again; segment 7 is still the file's
     * [34, 42, 0, -13]; nothing else in the file changed. */
    g_assert_true (g_file_get_contents (kept, &data, &len, NULL));
    after = g_bytes_new (data, len);
    b = tress_bfres_parse (before, "Animal_Bass_Animation.bfres", &error);
    g_assert_no_error (error);
    g_assert_true (tress_bfres_get_curve_info (b, (guint)tress_bfres_find_curve (b, curve), &info));
    ref_check_local_edit (before, info.header_pos, after, info.header_pos, 2, 0.156);
    ref_curve_read (g_bytes_get_data (after, NULL), info.header_pos, TRUE, &rc);
    g_assert_cmpint (rc.kt, ==, 2);
    g_assert_cmpfloat (ref_elem (&rc, 28), ==, 34);
    g_assert_cmpfloat (ref_elem (&rc, 29), ==, 42);
    g_assert_cmpfloat (ref_elem (&rc, 30), ==, 0);
    g_assert_cmpfloat (ref_elem (&rc, 31), ==, -13);
  }
  {
    const char *set[]
        = { "set-key", sample, curve, "2", "--value", "0.156", "--widen", "-o", wide, NULL };
    const char *eval[] = { "eval", wide, curve, "2", NULL };
    g_autofree char *out = NULL, *value = NULL;

    g_assert_cmpint (tress_test_run_cli (set, &out, NULL), ==, 0);
    g_assert_nonnull (strstr (out, "widening: 16-bit keys: exact to "));
    g_assert_cmpuint (file_size (wide), ==, file_size (sample) + stated_growth (out));
    g_assert_cmpint (tress_test_run_cli (eval, &value, NULL), ==, 0);
    g_assert_cmpfloat_with_epsilon (g_ascii_strtod (strchr (value, '\t') + 1, NULL), 0.156, 6e-6);
  }
  {
    const char *refused[] = { "set-key", sample, curve, "2", "--frame", "2.5", "-o", frames, NULL };
    const char *set[]
        = { "set-key", sample, curve, "2", "--frame", "2.5", "--widen", "-o", frames, NULL };
    g_autofree char *out = NULL, *err = NULL;

    g_assert_cmpint (tress_test_run_cli (refused, NULL, &err), ==, 1);
    g_assert_nonnull (strstr (err, "add --widen to store it (Frames in steps of 1/32 (s10.5)"));
    g_assert_false (g_file_test (frames, G_FILE_TEST_EXISTS));
    g_assert_cmpint (tress_test_run_cli (set, &out, NULL), ==, 0);
    g_assert_nonnull (strstr (out, "widening: Frames in steps of 1/32 (s10.5)"));
    g_assert_null (strstr (out, "keys:")); /* the values keep their type */
    g_assert_cmpuint (file_size (frames), ==, file_size (sample) + stated_growth (out));
  }
}

/* A key past the end of the animation: refused without --extend in NIFF as in
 * BFRES (test_raise_frame_count), done with it. */
static void
test_niff_past_end (void)
{
  g_autofree char *sample = tress_test_sample_path ("niff/Rings.niff");
  g_autofree char *moved = tmp ("moved.niff"), *out = NULL, *err = NULL;
  const char *past[] = { "set-key", sample, "0", "46", "--frame", "260", "-o", moved, NULL };
  const char *extend[]
      = { "set-key", sample, "0", "46", "--frame", "260", "--extend", "-o", moved, NULL };
  const char *curves[] = { "curves", moved, NULL };

  if (sample == NULL)
    return;
  g_assert_cmpint (tress_test_run_cli (past, NULL, &err), ==, 1);
  g_assert_nonnull (strstr (err, "past the end of the animation (frame 249); add --extend"));
  g_assert_false (g_file_test (moved, G_FILE_TEST_EXISTS));
  g_assert_cmpint (tress_test_run_cli (extend, NULL, NULL), ==, 0);
  g_assert_cmpint (tress_test_run_cli (curves, &out, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "Sweep15_3_Animation/RotateX/X\t"));
  g_assert_nonnull (strstr (out, "47 keys\t0..260"));
}

/* Runs the command a refusal suggests ("… e.g. tress-cli CMD ARGS -o OUT"),
 * with OUT replaced by @out; returns its exit code and stdout. */
static int
run_suggested (const char *message, const char *out, char **out_stdout)
{
  const char *at = strstr (message, "tress-cli ");
  g_autofree char *line = NULL;
  g_auto (GStrv) argv = NULL;
  g_autoptr (GError) error = NULL;
  int argc;

  g_assert_nonnull (at);
  line = g_strndup (at + strlen ("tress-cli "), strcspn (at + strlen ("tress-cli "), ")\n"));
  g_assert_true (g_shell_parse_argv (line, &argc, &argv, &error));
  g_assert_no_error (error);
  for (int i = 0; i < argc; i++)
    if (g_str_equal (argv[i], "OUT"))
      {
        g_free (argv[i]);
        argv[i] = g_strdup (out);
      }
  g_test_message ("suggested: %s", line);
  return tress_test_run_cli ((const char *const *)argv, out_stdout, NULL);
}

/* A skeletal and a bone-visibility animation may share a name (and, with a
 * bone named so, a curve path): commands refuse the bare name with the
 * candidates and suggest a command that works; the kind-qualified forms do. */
static void
test_shared_names (void)
{
  g_autoptr (TressBfresBuilder) builder = tress_bfres_builder_new ("shared", 0x03040004);
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autofree char *path = tmp ("shared.bfres"), *raised = tmp ("shared-raised.bfres");
  const TressKey cubic[] = { { .frame = 0, .value = 0 }, { .frame = 30, .value = 1 } };
  const TressKey bits[] = { { .frame = 0, .value = 1 }, { .frame = 30, .value = 0 } };
  TressBfresBuilderCurve c = { .frame_type = TRESS_BFRES_FRAME_U8, .n_keys = 2 };

  tress_bfres_builder_begin_anim (builder, TRESS_BFRES_ANIM_SKELETAL, "Wait", 60, TRUE);
  tress_bfres_builder_add_bone (builder, "Arm");
  c.curve_type = TRESS_BFRES_CURVE_CUBIC;
  c.key_type = TRESS_BFRES_KEY_S16;
  c.target_offset = 0x28; /* Rotate Z */
  c.keys = cubic;
  tress_bfres_builder_add_curve (builder, &c);
  tress_bfres_builder_begin_anim (builder, TRESS_BFRES_ANIM_BONE_VISIBILITY, "Wait", 60, TRUE);
  c.curve_type = TRESS_BFRES_CURVE_STEP_BOOL;
  c.key_type = TRESS_BFRES_KEY_32;
  c.name = "Arm/Rotate Z";
  c.keys = bits;
  tress_bfres_builder_add_curve (builder, &c);
  bytes = tress_bfres_builder_finish (builder, &error);
  g_assert_no_error (error);
  g_assert_true (
      g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL));

  {
    const char *bare[] = { "bfres-set-frame-count", path, "Wait", "90", "-o", raised, NULL };
    g_autofree char *err = NULL, *out = NULL;

    g_assert_cmpint (tress_test_run_cli (bare, NULL, &err), ==, 2);
    g_assert_nonnull (strstr (err, "\"Wait\" names 2 animations of different kinds: "
                                   "Skeletal/Wait, Bone visibility/Wait"));
    g_assert_false (g_file_test (raised, G_FILE_TEST_EXISTS));
    g_assert_cmpint (run_suggested (err, raised, &out), ==, 0);
    g_assert_nonnull (strstr (out, "Skeletal/Wait: 90 frames (was 60)"));
  }
  {
    const char *qualified[]
        = { "bfres-set-frame-count", path, "Bone visibility/Wait", "75", "-o", raised, NULL };
    const char *lower[]
        = { "bfres-set-frame-count", path, "Bone visibility/Wait", "50", "-o", raised, NULL };
    const char *none[] = { "bfres-set-frame-count", path, "Run", "75", "-o", raised, NULL };
    g_autofree char *out = NULL, *err = NULL, *err2 = NULL;

    g_assert_cmpint (tress_test_run_cli (qualified, &out, NULL), ==, 0);
    g_assert_nonnull (strstr (out, "Bone visibility/Wait: 75 frames (was 60)"));
    g_assert_cmpint (tress_test_run_cli (lower, NULL, &err), ==, 1);
    g_assert_nonnull (strstr (err, "only raised"));
    g_clear_pointer (&out, g_free);
    g_assert_cmpint (run_suggested (err, raised, &out), ==, 0);
    g_assert_cmpint (tress_test_run_cli (none, NULL, &err2), ==, 2);
    g_assert_nonnull (strstr (err2, "the animations: 'Skeletal/Wait', 'Bone visibility/Wait'"));
  }
  {
    const char *eval[] = { "eval", path, "Wait/Arm/Rotate Z", "15", NULL };
    const char *vis[] = { "eval", path, "Bone visibility/Wait/Arm/Rotate Z", "15", NULL };
    g_autofree char *err = NULL, *out = NULL, *out2 = NULL;

    g_assert_cmpint (tress_test_run_cli (eval, NULL, &err), ==, 2);
    g_assert_nonnull (strstr (err, "2 curves have the path 'Wait/Arm/Rotate Z': "
                                   "Skeletal/Wait/Arm/Rotate Z (curve 0), "
                                   "Bone visibility/Wait/Arm/Rotate Z (curve 1)"));
    g_assert_cmpint (run_suggested (err, "", &out), ==, 0);
    g_assert_true (g_str_has_prefix (out, "0\t"));
    g_assert_cmpint (tress_test_run_cli (vis, &out2, NULL), ==, 0);
    g_assert_cmpstr (out2, ==, "15\t1\n");
  }
}

/* The number after @prefix in @text. */
static double
number_after (const char *text, const char *prefix)
{
  const char *at = strstr (text, prefix);

  g_assert_nonnull (at);
  return g_ascii_strtod (at + strlen (prefix), NULL);
}

/* A value far outside an s8 curve's stored range: refused with both ways out
 * and their costs, nothing written; --widen keeps every other key within half
 * its step and grows the file by what it said; --requantize moves the others
 * by what it says (measured by the tests' decoder). */
static void
test_far_value (void)
{
  g_autofree char *sample = tress_test_sample_path ("bfres/Animal_Dog_Animation.bfres");
  g_autofree char *out = tmp ("far.bfres"), *wide = tmp ("far-wide.bfres");
  g_autofree char *coarse = tmp ("far-coarse.bfres"), *o = NULL, *e = NULL;
  const char *curve = "Damage/Spine_1/Rotate X";
  g_autoptr (GBytes) orig = NULL;
  double wide_moved, growth, moved_said;
  RefCurve rc;
  gsize header = 0;

  if (sample == NULL)
    return;
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (TressBfres) b = NULL;
    TressBfresCurveInfo info;

    orig = tress_test_load_sample ("bfres/Animal_Dog_Animation.bfres");
    b = tress_bfres_parse (orig, "dog", &error);
    g_assert_no_error (error);
    tress_bfres_get_curve_info (b, (guint)tress_bfres_find_curve (b, curve), &info);
    header = info.header_pos;
    ref_curve_read (g_bytes_get_data (orig, NULL), header, TRUE, &rc);
    g_assert_cmpuint (rc.kt, ==, 2);
  }
  g_remove (out);
  {
    const char *set[] = { "set-key", sample, curve, "1", "--value", "2.5", "-o", out, NULL };

    g_assert_cmpint (tress_test_run_cli (set, &o, &e), ==, 1);
    g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
    g_assert_nonnull (strstr (e, "nothing written"));
    g_assert_nonnull (strstr (e, "--requantize"));
    g_assert_nonnull (strstr (e, "--widen to store 32-bit float keys"));
    moved_said = number_after (e, "moves the keys not edited by up to ");
    g_assert_cmpfloat (moved_said, >, rc.scale);
    wide_moved = number_after (e, "the keys not edited then move by up to ");
    g_assert_cmpfloat (wide_moved, <=, rc.scale / 2);
    growth = number_after (e, "the file grows by ");
    g_clear_pointer (&o, g_free);
    g_clear_pointer (&e, g_free);
  }
  for (int way = 0; way < 2; way++)
    {
      const char *path = way == 0 ? wide : coarse;
      const char *set[] = {
        "set-key", sample, curve, "1", "--value", "2.5", way == 0 ? "--widen" : "--requantize",
        "-o",      path,   NULL
      };
      g_autoptr (GBytes) after = NULL;
      RefCurve ac;
      double worst = 0;

      g_assert_cmpint (tress_test_run_cli (set, &o, &e), ==, 0);
      after = tress_test_read_file (path);
      ref_curve_read (g_bytes_get_data (after, NULL), header, TRUE, &ac);
      for (guint k = 0; k < rc.n; k++)
        if (k != 1)
          worst = MAX (worst, fabs (ref_eval (&ac, ref_frame (&ac, k))
                                    - ref_eval (&rc, ref_frame (&rc, k))));
      g_assert_cmpfloat (fabs (ref_eval (&ac, 1) - 2.5), <=, MAX (ac.scale, 1e-6));
      if (way == 0)
        {
          g_assert_cmpuint (ac.kt, ==, 0);
          g_assert_cmpfloat (worst, <=, rc.scale / 2);
          g_assert_cmpuint (g_bytes_get_size (after) - g_bytes_get_size (orig), ==, (gsize)growth);
        }
      else
        {
          g_assert_cmpuint (ac.kt, ==, 2);
          g_assert_cmpuint (g_bytes_get_size (after), ==, g_bytes_get_size (orig));
          /* The note in the unit the file stores, its numbers plain. */
          g_assert_nonnull (strstr (o, "keys not edited moved by up to 0.0"));
          g_assert_null (strchr (o, '\x1f'));
          /* The figure said is the largest real move, to its 3 digits. */
          g_assert_cmpfloat (fabs (worst - moved_said), <=, moved_said * 0.005);
        }
      g_clear_pointer (&o, g_free);
      g_clear_pointer (&e, g_free);
    }
}

/* Converting to Linear from the command line gives a ramp between the keys. */
static void
test_linear_ramp (void)
{
  g_autofree char *sample = tress_test_sample_path ("bfres/Animal_Bass_Animation.bfres");
  g_autofree char *lin = tmp ("lin.bfres"), *o = NULL, *o2 = NULL;
  const char *set[] = {
    "bfres-set-type", sample, "Move/Tail/Rotate Y", "--curve-type", "Linear", "-o", lin, NULL
  };
  const char *eval[] = { "eval", lin, "Move/Tail/Rotate Y", "0", "1", "2", NULL };
  g_auto (GStrv) lines = NULL;
  double v0, v1, v2;

  if (sample == NULL)
    return;
  g_assert_cmpint (tress_test_run_cli (set, &o, NULL), ==, 0);
  g_assert_cmpint (tress_test_run_cli (eval, &o2, NULL), ==, 0);
  lines = g_strsplit (o2, "\n", -1);
  v0 = g_ascii_strtod (strchr (lines[0], '\t') + 1, NULL);
  v1 = g_ascii_strtod (strchr (lines[1], '\t') + 1, NULL);
  v2 = g_ascii_strtod (strchr (lines[2], '\t') + 1, NULL);
  /* Keys at 0 and 2 (0.234 and 0.081): frame 1 lies half-way. */
  g_assert_cmpfloat (fabs (v1 - (v0 + v2) / 2), <, 1e-3);
  g_assert_cmpfloat (v0 - v2, >, 0.1);
}

/* The key values of curve @path of the BFRES file @file, read with the
 * independent reader of bfres-test-common.h: a cubic curve's key i holds
 * the constant term of segment i (the last key, a segment of its own). */
static GArray *
ref_key_values (const char *file, const char *path, GArray **frames)
{
  g_autoptr (GBytes) bytes = tress_test_read_file (file);
  g_autoptr (GBytes) raw = NULL;
  g_autoptr (TressBfres) b = NULL;
  g_autoptr (GError) error = NULL;
  TressBfresCurveInfo info;
  RefCurve rc;
  GArray *values = g_array_new (FALSE, FALSE, sizeof (double));

  b = tress_bfres_parse (bytes, file, &error);
  g_assert_no_error (error);
  raw = tress_bfres_get_bfres_bytes (b);
  g_assert_true (tress_bfres_get_curve_info (b, (guint)tress_bfres_find_curve (b, path), &info));
  ref_curve_read (g_bytes_get_data (raw, NULL), info.header_pos, TRUE, &rc);
  g_assert_cmpuint (rc.ct, ==, 0);
  *frames = g_array_new (FALSE, FALSE, sizeof (double));
  for (guint i = 0; i < rc.n; i++)
    {
      double v = ref_elem (&rc, 4 * i) * rc.scale + rc.offset, f = ref_frame (&rc, i);

      g_array_append_val (values, v);
      g_array_append_val (*frames, f);
    }
  return values;
}

static guint
count_jumps (GArray *values)
{
  guint jumps = 0;

  for (guint i = 1; i < values->len; i++)
    jumps
        += fabs (g_array_index (values, double, i) - g_array_index (values, double, i - 1)) > G_PI;
  return jumps;
}

/* Unwrap on one rotation channel alone, after set-key put a key a whole turn
 * away: the Dog's Damage/Skl_Root/Rotate X (s16 keys, widened to 32-bit to
 * hold the edit) is written back, read from the bytes, with no change of
 * more than half a turn between keys and every key at its old angle plus
 * whole turns; Wait_Random_H/Skl_Root/Rotate Y (32-bit keys), which spins
 * through turns between sparse keys, loses the moved key's turn and keeps its
 * spin, and the command says what it kept. */
static void
test_unwrap_one_channel (void)
{
  g_autofree char *dog = tress_test_sample_path ("bfres/Animal_Dog_Animation.bfres");
  static const struct
  {
    const char *path;
    const char *key;
    gboolean spins;
  } cases[] = {
    { "Damage/Skl_Root/Rotate X", "3", FALSE },
    { "Wait_Random_H/Skl_Root/Rotate Y", "20", TRUE },
  };

  if (dog == NULL)
    return;
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autofree char *bumped = tmp ("dog-bumped.bfres"), *out = tmp ("dog-one.bfres");
      g_autoptr (GArray) f0 = NULL, f1 = NULL, f2 = NULL;
      g_autoptr (GArray) v0 = ref_key_values (dog, cases[c].path, &f0);
      g_autoptr (GArray) v1 = NULL, v2 = NULL;
      g_autofree char *text = NULL;
      guint k = (guint)g_ascii_strtoull (cases[c].key, NULL, 10), jumps = count_jumps (v0);
      char value[G_ASCII_DTOSTR_BUF_SIZE];

      g_assert_cmpuint (jumps, ==, cases[c].spins ? 2 : 0);
      g_ascii_formatd (value, sizeof value, "%.9g", g_array_index (v0, double, k) + 2 * G_PI);
      {
        const char *set[] = { "set-key", dog,       cases[c].path, cases[c].key, "--value",
                              value,     "--widen", "-o",          bumped,       NULL };

        g_assert_cmpint (tress_test_run_cli (set, NULL, NULL), ==, 0);
      }
      v1 = ref_key_values (bumped, cases[c].path, &f1);
      g_assert_cmpuint (count_jumps (v1), ==, jumps + 2);
      {
        const char *unwrap[] = { "unwrap", bumped, cases[c].path, "-o", out, NULL };

        g_assert_cmpint (tress_test_run_cli (unwrap, &text, NULL), ==, 0);
        g_test_message ("%s", text);
        g_assert_nonnull (strstr (text, "curves unwrapped: 1 of 1"));
        g_assert_true ((strstr (text, "kept: ") != NULL) == cases[c].spins);
      }
      v2 = ref_key_values (out, cases[c].path, &f2);
      g_assert_cmpuint (v2->len, ==, v0->len);
      g_assert_cmpuint (count_jumps (v2), ==, jumps);
      for (guint i = 0; i < v2->len; i++)
        {
          double now = g_array_index (v2, double, i), was = g_array_index (v0, double, i);
          double turns = (now - was) / (2 * G_PI);

          g_assert_cmpfloat (g_array_index (f2, double, i), ==, g_array_index (f0, double, i));
          g_assert_cmpfloat (fabs (turns - round (turns)), <, 1e-5);
          /* Back where it was: the turn the edit added, and no other, is gone. */
          g_assert_cmpfloat_with_epsilon (now, was, 1e-5 * MAX (1.0, fabs (was)));
        }
      /* The spin: from about 6 turns to about −6, as before. */
      if (cases[c].spins)
        g_assert_cmpfloat (g_array_index (v2, double, v2->len - 1), <, -18);
    }
}

/* A JSON edit far outside a quantized curve's range: build refuses it (the
 * other keys would move), naming --requantize and --widen; with either it
 * builds what set-key builds with the same option. */
static void
test_build_far_value (void)
{
  g_autofree char *sample = tress_test_sample_path ("bfres/Animal_Bass_Animation.bfres");
  g_autofree char *json = tmp ("far.json"), *built = tmp ("far-built.bfres");
  g_autofree char *set = tmp ("far-set.bfres"), *text = NULL, *err = NULL, *o = NULL;
  const char *dump[] = { "dump", sample, NULL };
  g_autoptr (GString) edited = NULL;
  const char *at, *value, *end;

  if (sample == NULL)
    return;
  g_assert_cmpint (tress_test_run_cli (dump, &text, NULL), ==, 0);
  /* Key 2 of Put_Down/Spine_3/Rotate Y (an s8 curve) to 0.85. */
  at = strstr (text, "\"path\": \"Put_Down/Spine_3/Rotate Y\"");
  g_assert_nonnull (at);
  at = strstr (at, "\"keys\": [");
  for (int k = 0; k <= 2; k++)
    at = strstr (at + 1, "\"value\": ");
  value = at + strlen ("\"value\": ");
  end = value + strcspn (value, ",}");
  edited = g_string_new_len (text, value - text);
  g_string_append (edited, "0.85");
  g_string_append (edited, end);
  g_assert_true (g_file_set_contents (json, edited->str, edited->len, NULL));
  g_remove (built);
  {
    const char *build[] = { "build", json, "-o", built, NULL };

    g_assert_cmpint (tress_test_run_cli (build, &o, &err), ==, 1);
    g_assert_nonnull (strstr (err, "build with --requantize"));
    g_assert_nonnull (strstr (err, "or --widen to store"));
    g_assert_false (g_file_test (built, G_FILE_TEST_EXISTS));
    g_clear_pointer (&o, g_free);
    g_clear_pointer (&err, g_free);
  }
  for (int way = 0; way < 2; way++)
    {
      const char *option = way == 0 ? "--widen" : "--requantize";
      const char *build[] = { "build", json, option, "-o", built, NULL };
      const char *setkey[]
          = { "set-key", sample, "Put_Down/Spine_3/Rotate Y", "2", "--value", "0.85", option, "-o",
              set,       NULL };
      g_autoptr (GBytes) a = NULL, b = NULL;

      g_assert_cmpint (tress_test_run_cli (build, &o, &err), ==, 0);
      g_clear_pointer (&o, g_free);
      g_clear_pointer (&err, g_free);
      g_assert_cmpint (tress_test_run_cli (setkey, &o, &err), ==, 0);
      g_clear_pointer (&o, g_free);
      g_clear_pointer (&err, g_free);
      a = tress_test_read_file (built);
      b = tress_test_read_file (set);
      tress_test_assert_bytes_equal (a, b);
    }
}

/* generate-demo bfres --bones …: the generated model and as many
 * animations of that length as asked, every bone moved; sizes out of range
 * refused (exit 2, nothing written). */
static void
test_generate_sized (void)
{
  g_autofree char *path = tmp ("sized.bfres"), *bad = tmp ("sized-bad.bfres");
  g_autofree char *out = NULL, *err = NULL;
  const char *gen[]
      = { "generate-demo", "bfres", "--bones", "20", "--vertices", "500", "--animations", "3",
          "--frames",      "8",     "-o",      path, NULL };
  const char *info[] = { "info", path, NULL };
  const char *odd[]
      = { "generate-demo", "bfres", "--bones", "20", "--frames", "7", "-o", bad, NULL };
  const char *many[] = { "generate-demo", "bfres", "--bones", "256", "-o", bad, NULL };

  g_assert_cmpint (tress_test_run_cli (gen, NULL, NULL), ==, 0);
  g_assert_cmpint (tress_test_run_cli (info, &out, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "Model Creature: 20 bones, 1 shapes"));
  /* 3 animations × 20 bones × 2 curves (Rotate Z and X). */
  g_assert_nonnull (strstr (out, "Skeletal animations: 3 (120 curves)"));
  g_clear_pointer (&out, g_free);
  {
    const char *eval[] = { "eval", path, "Anim_002/Bone_019/Rotate Z", "2", NULL };

    g_assert_cmpint (tress_test_run_cli (eval, &out, NULL), ==, 0);
    /* "FRAME\tVALUE" */
    g_assert_nonnull (strchr (out, '\t'));
    g_assert_cmpfloat (fabs (g_ascii_strtod (strchr (out, '\t') + 1, NULL)), >, 0.01);
    g_clear_pointer (&out, g_free);
  }
  /* --vertices 0: the animations alone, no model. */
  {
    const char *bare[]
        = { "generate-demo", "bfres", "--bones", "20", "--vertices", "0", "--animations", "3",
            "--frames",      "8",     "-o",      path, NULL };

    g_assert_cmpint (tress_test_run_cli (bare, NULL, NULL), ==, 0);
    g_assert_cmpint (tress_test_run_cli (info, &out, NULL), ==, 0);
    g_assert_null (strstr (out, "Model Creature"));
    g_assert_nonnull (strstr (out, "Skeletal animations: 3 (120 curves)"));
    g_clear_pointer (&out, g_free);
  }
  /* --curves: that many short curves, each with a key count in the range. */
  {
    const char *gen_curves[]
        = { "generate-demo", "bfres", "--curves", "300", "--keys", "2-6", "-o", path, NULL };
    const char *list[] = { "curves", path, NULL };
    const char *bad_keys[]
        = { "generate-demo", "bfres", "--curves", "30", "--keys", "6-2", "-o", bad, NULL };
    g_auto (GStrv) lines = NULL;
    guint n = 0, seen[7] = { 0 };

    g_assert_cmpint (tress_test_run_cli (gen_curves, NULL, NULL), ==, 0);
    g_assert_cmpint (tress_test_run_cli (list, &out, NULL), ==, 0);
    lines = g_strsplit (out, "\n", -1);
    for (guint i = 0; lines[i] != NULL; i++)
      {
        g_auto (GStrv) cols = g_strsplit (lines[i], "\t", -1);
        guint64 keys;

        if (g_strv_length (cols) < 4)
          continue;
        keys = g_ascii_strtoull (cols[3], NULL, 10);
        g_assert_cmpuint (keys, >=, 2);
        g_assert_cmpuint (keys, <=, 6);
        seen[keys]++;
        n++;
      }
    g_assert_cmpuint (n, ==, 300);
    for (guint k = 2; k <= 6; k++)
      g_assert_cmpuint (seen[k], >, 0);
    g_clear_pointer (&out, g_free);
    g_assert_cmpint (tress_test_run_cli (bad_keys, NULL, &err), ==, 2);
    g_assert_nonnull (strstr (err, "--keys MIN-MAX"));
    g_clear_pointer (&err, g_free);
  }
  g_assert_cmpint (tress_test_run_cli (odd, NULL, &err), ==, 2);
  g_assert_nonnull (strstr (err, "--frames a multiple of 4"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (tress_test_run_cli (many, NULL, &err), ==, 2);
  g_assert_false (g_file_test (bad, G_FILE_TEST_EXISTS));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/bfres/cli/demo-and-curves", test_demo_and_curves);
  g_test_add_func ("/bfres/cli/generate-sized", test_generate_sized);
  g_test_add_func ("/bfres/cli/switch-refused", test_switch_refused);
  g_test_add_func ("/bfres/cli/sample-edit", test_sample_edit);
  g_test_add_func ("/bfres/cli/raise-frame-count", test_raise_frame_count);
  g_test_add_func ("/bfres/cli/eval-matches-stored", test_eval_matches_stored);
  g_test_add_func ("/bfres/cli/eval-between-keys", test_eval_between_keys);
  g_test_add_func ("/bfres/cli/set-key-precision", test_set_key_precision);
  g_test_add_func ("/bfres/cli/niff-past-end", test_niff_past_end);
  g_test_add_func ("/bfres/cli/shared-names", test_shared_names);
  g_test_add_func ("/bfres/cli/far-value", test_far_value);
  g_test_add_func ("/bfres/cli/linear-ramp", test_linear_ramp);
  g_test_add_func ("/bfres/cli/build-far-value", test_build_far_value);
  g_test_add_func ("/bfres/cli/unwrap-one-channel", test_unwrap_one_channel);
  return g_test_run ();
}
