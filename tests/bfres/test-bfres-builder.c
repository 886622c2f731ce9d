/* test-bfres-builder.c: files made from nothing for every version family ×
 * curve type × frame type × key type open, round-trip and evaluate to what
 * was put in; index groups have working trie bits
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "bfres-test-common.h"
#include "formats/bfres/tress-bfres-builder.h"
#include "tress-test-utils.h"

#define MAX_KEYS 40

static gboolean
is_float (TressBfresCurveType ct)
{
  return ct <= TRESS_BFRES_CURVE_BAKED_FLOAT;
}

static gboolean
is_baked (TressBfresCurveType ct)
{
  return ct == TRESS_BFRES_CURVE_BAKED_FLOAT || ct == TRESS_BFRES_CURVE_BAKED_INT
         || ct == TRESS_BFRES_CURVE_BAKED_BOOL;
}

static guint
make_keys (TressBfresCurveType ct, TressBfresFrameType ft, TressKey *keys)
{
  static const double frames_u8[] = { 0, 3, 4, 9, 12, 20 };
  static const double frames_s105[] = { 0, 2.5, 4, 9.25, 12, 20.03125 };
  static const double frames_f32[] = { 0, 2.015625, 4, 9.703125, 12.109375, 20 };
  guint count = is_baked (ct) ? 40 : 6;

  for (guint i = 0; i < count; i++)
    {
      TressKey k = { 0 };
      k.frame = is_baked (ct)                   ? i
                : ft == TRESS_BFRES_FRAME_U8    ? frames_u8[i]
                : ft == TRESS_BFRES_FRAME_S10_5 ? frames_s105[i]
                                                : frames_f32[i];
      if (is_float (ct))
        {
          k.value = 1.5 * sin (k.frame / 3.0) + 0.25;
          k.in_slope = k.out_slope = 0.5 * cos (k.frame / 3.0);
          k.interp = ct == TRESS_BFRES_CURVE_CUBIC    ? TRESS_INTERP_HERMITE
                     : ct == TRESS_BFRES_CURVE_LINEAR ? TRESS_INTERP_LINEAR
                                                      : TRESS_INTERP_BAKED;
        }
      else if (ct == TRESS_BFRES_CURVE_STEP_INT || ct == TRESS_BFRES_CURVE_BAKED_INT)
        k.value = (i * 7) % 4;
      else
        k.value = (i % 3) != 1;
      if (!is_float (ct))
        k.interp = is_baked (ct) ? TRESS_INTERP_BAKED : TRESS_INTERP_STEP;
      keys[i] = k;
    }
  return count;
}

static const char *const kind_paths[] = {
  [TRESS_BFRES_ANIM_SKELETAL] = "Anim/Bone/Rotate Z",
  [TRESS_BFRES_ANIM_SHADER_PARAM] = "Anim/Mat/gsys_param.Z",
  [TRESS_BFRES_ANIM_COLOUR] = "Anim/Mat/albedo_color.B",
  [TRESS_BFRES_ANIM_TEX_SRT] = "Anim/Mat/tex_mtx0.Rotate",
  [TRESS_BFRES_ANIM_TEX_PATTERN] = "Anim/Mat/_a0",
  [TRESS_BFRES_ANIM_BONE_VISIBILITY] = "Anim/Arm",
  [TRESS_BFRES_ANIM_MAT_VISIBILITY] = "Anim/Arm",
};

static GBytes *
build_one (guint32 version, TressBfresAnimKind kind, TressBfresCurveType ct, TressBfresFrameType ft,
           TressBfresKeyType kt, const TressKey *keys, guint n, GError **error)
{
  g_autoptr (TressBfresBuilder) b = tress_bfres_builder_new ("Test", version);
  TressBfresBuilderCurve c = { 0 };
  TressKey extra[2] = { { .frame = 0, .value = 1, .interp = TRESS_INTERP_STEP },
                        { .frame = 5, .value = 0, .interp = TRESS_INTERP_STEP } };

  c.curve_type = ct;
  c.frame_type = ft;
  c.key_type = kt;
  c.n_keys = n;
  c.keys = keys;
  c.name = kind == TRESS_BFRES_ANIM_TEX_PATTERN ? "_a0" : "Arm";
  tress_bfres_builder_begin_anim (b, kind, "Anim", 40, TRUE);
  switch (kind)
    {
    case TRESS_BFRES_ANIM_SKELETAL:
      tress_bfres_builder_add_bone (b, "Bone");
      c.target_offset = 0x28;
      break;
    case TRESS_BFRES_ANIM_SHADER_PARAM:
      tress_bfres_builder_add_material (b, "Mat");
      tress_bfres_builder_add_param (b, "gsys_param");
      c.target_offset = 8;
      break;
    case TRESS_BFRES_ANIM_COLOUR:
      tress_bfres_builder_add_material (b, "Mat");
      tress_bfres_builder_add_param (b, "albedo_color");
      c.target_offset = 8;
      break;
    case TRESS_BFRES_ANIM_TEX_SRT:
      tress_bfres_builder_add_material (b, "Mat");
      tress_bfres_builder_add_param (b, "tex_mtx0");
      c.target_offset = 0x0C;
      break;
    case TRESS_BFRES_ANIM_TEX_PATTERN:
      for (int i = 0; i < 4; i++)
        {
          g_autofree char *t = g_strdup_printf ("Tex_%d", i);
          tress_bfres_builder_add_texture (b, t);
        }
      tress_bfres_builder_add_material (b, "Mat");
      break;
    default:
      break;
    }
  tress_bfres_builder_add_curve (b, &c);
  /* A second, untouched animation in another group. */
  tress_bfres_builder_begin_anim (b, TRESS_BFRES_ANIM_MAT_VISIBILITY, "Other", 10, FALSE);
  c.curve_type = TRESS_BFRES_CURVE_STEP_BOOL;
  c.frame_type = TRESS_BFRES_FRAME_U8;
  c.key_type = TRESS_BFRES_KEY_S8;
  c.name = "Lamp";
  c.n_keys = 2;
  c.keys = extra;
  tress_bfres_builder_add_curve (b, &c);
  return tress_bfres_builder_finish (b, error);
}

static void
test_combinations (void)
{
  static const guint32 versions[] = { 0x03040004, 0x03030000 };
  static const TressBfresCurveType types[] = {
    TRESS_BFRES_CURVE_CUBIC,      TRESS_BFRES_CURVE_LINEAR,    TRESS_BFRES_CURVE_BAKED_FLOAT,
    TRESS_BFRES_CURVE_STEP_INT,   TRESS_BFRES_CURVE_BAKED_INT, TRESS_BFRES_CURVE_STEP_BOOL,
    TRESS_BFRES_CURVE_BAKED_BOOL,
  };
  static const TressBfresAnimKind float_kinds[] = {
    TRESS_BFRES_ANIM_SKELETAL,
    TRESS_BFRES_ANIM_SHADER_PARAM,
    TRESS_BFRES_ANIM_COLOUR,
    TRESS_BFRES_ANIM_TEX_SRT,
  };
  guint n_files = 0;

  for (guint v = 0; v < G_N_ELEMENTS (versions); v++)
    for (guint t = 0; t < G_N_ELEMENTS (types); t++)
      for (int ft = 0; ft < 3; ft++)
        for (int kt = 0; kt < 3; kt++)
          {
            TressBfresCurveType ct = types[t];
            TressBfresAnimKind kind;
            TressKey keys[MAX_KEYS];
            guint n = make_keys (ct, ft, keys);
            g_autoptr (GError) error = NULL;
            g_autoptr (GBytes) bytes = NULL, again = NULL, raw = NULL;
            g_autoptr (TressBfres) b = NULL;
            g_autoptr (GPtrArray) problems = NULL;
            g_autoptr (TressCurve) curve = NULL;
            TressBfresCurveInfo info;
            RefCurve rc;
            double tol;

            if (is_float (ct))
              kind = float_kinds[(ft + kt + t) % 4];
            else if (bfres_test_is_bool (ct))
              kind = ft % 2 ? TRESS_BFRES_ANIM_MAT_VISIBILITY : TRESS_BFRES_ANIM_BONE_VISIBILITY;
            else
              kind = TRESS_BFRES_ANIM_TEX_PATTERN;
            bytes = build_one (versions[v], kind, ct, ft, kt, keys, n, &error);
            g_assert_no_error (error);
            b = tress_bfres_parse (bytes, "built", &error);
            g_assert_no_error (error);
            g_assert_cmpuint (tress_bfres_get_version (b), ==, versions[v]);
            again = tress_bfres_serialize (b, &error);
            g_assert_no_error (error);
            tress_test_assert_bytes_equal (bytes, again);
            problems = tress_format_bfres.validate (b);
            g_assert_cmpuint (tress_problem_list_count (problems, TRESS_SEVERITY_WARNING), ==, 0);

            g_assert_cmpuint (tress_bfres_get_n_curves (b), ==, 2);
            g_assert_true (tress_bfres_get_curve_info (b, 0, &info));
            g_assert_cmpint (info.curve_type, ==, ct);
            g_assert_cmpint (info.frame_type, ==, ft);
            g_assert_cmpint (info.key_type, ==, kt);
            g_assert_cmpuint (info.n_keys, ==, n);
            g_assert_cmpstr (info.path, ==, kind_paths[kind]);
            g_assert_cmpstr (bfres_test_path (b, 1), ==, "Other/Lamp");

            raw = tress_bfres_get_bfres_bytes (b);
            ref_curve_read (g_bytes_get_data (raw, NULL), info.header_pos,
                            versions[v] >= 0x03040000, &rc);
            /* Rounding a value to the key type's grid moves it by half a step. */
            tol = !is_float (ct) ? 0 : kt == TRESS_BFRES_KEY_32 ? 1e-5 : 0.5 * rc.scale + 1e-6;
            curve = tress_format_bfres.curves->get_curve (b, 0);
            g_assert_cmpfloat (curve->frame_count, ==, 40);
            g_assert_true (curve->loops);
            for (guint k = 0; k < n; k++)
              {
                g_assert_cmpfloat (ref_frame (&rc, k), ==, keys[k].frame);
                g_assert_cmpfloat_with_epsilon (ref_eval (&rc, keys[k].frame), keys[k].value,
                                                tol + 1e-9);
                g_assert_cmpfloat_with_epsilon (tress_curve_evaluate (curve, keys[k].frame),
                                                keys[k].value, tol + 1e-9);
                /* What the key table shows: one sample a frame for the baked
                 * types, a step for the other integer and boolean ones. */
                if (is_baked (ct))
                  g_assert_cmpint (tress_curve_get_key (curve, k)->interp, ==, TRESS_INTERP_BAKED);
                else if (!is_float (ct))
                  g_assert_cmpint (tress_curve_get_key (curve, k)->interp, ==, TRESS_INTERP_STEP);
                if (ct == TRESS_BFRES_CURVE_CUBIC && k + 1 < n)
                  {
                    /* Between keys: the Hermite segment that was put in. */
                    double d = keys[k + 1].frame - keys[k].frame;
                    double want = tress_hermite (keys[k].value, keys[k + 1].value,
                                                 keys[k].out_slope, keys[k + 1].in_slope, d, 0.5);
                    g_assert_cmpfloat_with_epsilon (ref_eval (&rc, keys[k].frame + d / 2), want,
                                                    4 * tol + 1e-6);
                  }
              }
            /* The file's own evaluation agrees with the format page's at
             * every key and inside every segment. */
            {
              double probes[3 * MAX_KEYS];
              guint m = ref_probe_frames (&rc, probes);

              for (guint p = 0; p < m; p++)
                g_assert_cmpfloat_with_epsilon (tress_bfres_evaluate (b, 0, probes[p]),
                                                ref_eval (&rc, probes[p]), 1e-9);
            }
            n_files++;
          }
  g_assert_cmpuint (n_files, ==, 2 * 7 * 3 * 3);
}

/* Index-group lookup as the format page describes it. */
static int
group_lookup (const guint8 *d, gsize group, const char *name)
{
  guint32 prev = G_MAXUINT32;
  guint idx = (guint)d[group + 8 + 4] << 8 | d[group + 8 + 5];
  gsize len = strlen (name);

  for (;;)
    {
      gsize node = group + 8 + 16 * (gsize)idx;
      guint32 bit = ref_u32 (d, node);
      int dir;
      if (bit >= prev)
        break;
      prev = bit;
      dir = (bit >> 3) < len ? ((guint8)name[bit >> 3] >> (bit & 7)) & 1 : 0;
      idx = dir ? ((guint)d[node + 6] << 8 | d[node + 7]) : ((guint)d[node + 4] << 8 | d[node + 5]);
    }
  return (int)idx;
}

/* A file of one skeletal animation per name, in that order, each a bone
 * "Root" with one linear curve of two keys. */
static GBytes *
named_anims_file (const char *file_name, const char *const *names, guint n)
{
  g_autoptr (TressBfresBuilder) b = tress_bfres_builder_new (file_name, 0x04050003);
  g_autoptr (GError) error = NULL;
  TressKey keys[2] = { { .frame = 0, .value = 0, .interp = TRESS_INTERP_LINEAR },
                       { .frame = 1, .value = 1, .interp = TRESS_INTERP_LINEAR } };
  TressBfresBuilderCurve c = { .curve_type = TRESS_BFRES_CURVE_LINEAR,
                               .frame_type = TRESS_BFRES_FRAME_U8,
                               .key_type = TRESS_BFRES_KEY_S16,
                               .target_offset = 0x10,
                               .n_keys = 2,
                               .keys = keys };
  GBytes *bytes;

  for (guint i = 0; i < n; i++)
    {
      tress_bfres_builder_begin_anim (b, TRESS_BFRES_ANIM_SKELETAL, names[i], 1, FALSE);
      tress_bfres_builder_add_bone (b, "Root");
      tress_bfres_builder_add_curve (b, &c);
    }
  bytes = tress_bfres_builder_finish (b, &error);
  g_assert_no_error (error);
  return bytes;
}

static void
test_index_group_trie (void)
{
  static const char *const names[] = {
    "Wait",
    "Walk",
    "Run",
    "Run_Fast",
    "Jump",
    "Jump_Start",
    "Jump_End",
    "A",
    "B",
    "AB",
    "BA",
    "Damage_Turn_L",
    "Damage_Turn_R",
    "Damage_Turn",
    "Damage",
    "Sleep",
    "Sleep_Loop",
    "Eat",
    "x",
  };
  g_autoptr (GBytes) bytes = named_anims_file ("Trie", names, G_N_ELEMENTS (names));
  const guint8 *d = g_bytes_get_data (bytes, NULL);
  gsize group;

  group = 0x28 + (gint32)ref_u32 (d, 0x28);
  g_assert_cmpuint (ref_u32 (d, group), ==, 8 + 16 * (G_N_ELEMENTS (names) + 1));
  g_assert_cmpuint (ref_u32 (d, group + 4), ==, G_N_ELEMENTS (names));
  g_assert_cmpuint (ref_u32 (d, group + 8), ==, 0xFFFFFFFF);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_assert_cmpint (group_lookup (d, group, names[i]), ==, (int)i + 1);
  g_assert_cmpuint ((guint)d[0x54] << 8 | d[0x55], ==, G_N_ELEMENTS (names));
}

/* An index group whose first name is empty: every name, "" too, is found by
 * the format page's lookup, and the file opens with the animation named "". */
static void
test_empty_name (void)
{
  static const char *const names[] = { "", "Wait", "Walk" };
  g_autoptr (GBytes) bytes = named_anims_file ("Empty", names, G_N_ELEMENTS (names));
  g_autoptr (GError) error = NULL;
  g_autoptr (TressBfres) file = NULL;
  const guint8 *d = g_bytes_get_data (bytes, NULL);
  gsize group;

  group = 0x28 + (gint32)ref_u32 (d, 0x28);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_assert_cmpint (group_lookup (d, group, names[i]), ==, (int)i + 1);
  file = tress_bfres_parse (bytes, "empty", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tress_bfres_get_n_curves (file), ==, 3);
  g_assert_cmpstr (bfres_test_path (file, 1), ==, "Wait/Root/Translate X");
}

/* At and past its last key a curve is the last key's value, whatever the file
 * holds in that key's unused slope element (here NaN). */
static void
test_last_key_unused_slope (void)
{
  g_autoptr (TressBfresBuilder) builder = tress_bfres_builder_new ("Last", 0x04050003);
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL, patched = NULL;
  g_autoptr (TressBfres) b = NULL;
  TressKey keys[3] = { { .frame = 0, .value = 0, .interp = TRESS_INTERP_LINEAR },
                       { .frame = 4, .value = 2, .interp = TRESS_INTERP_LINEAR },
                       { .frame = 8, .value = -1.5, .interp = TRESS_INTERP_LINEAR } };
  TressBfresBuilderCurve c = { .curve_type = TRESS_BFRES_CURVE_LINEAR,
                               .frame_type = TRESS_BFRES_FRAME_F32,
                               .key_type = TRESS_BFRES_KEY_32,
                               .target_offset = 0x10,
                               .n_keys = 3,
                               .keys = keys };
  TressBfresCurveInfo info;
  guint8 *d;
  gsize size;

  tress_bfres_builder_begin_anim (builder, TRESS_BFRES_ANIM_SKELETAL, "Anim", 8, FALSE);
  tress_bfres_builder_add_bone (builder, "Bone");
  tress_bfres_builder_add_curve (builder, &c);
  bytes = tress_bfres_builder_finish (builder, &error);
  g_assert_no_error (error);
  size = g_bytes_get_size (bytes);
  d = g_memdup2 (g_bytes_get_data (bytes, NULL), size);
  {
    g_autoptr (TressBfres) probe = tress_bfres_parse (bytes, "last", &error);

    g_assert_no_error (error);
    g_assert_true (tress_bfres_get_curve_info (probe, 0, &info));
  }
  /* Element 2 × 2 + 1: the last key's slope, a quiet NaN. */
  memcpy (d + info.keys_pos + 4 * 5, "\x7f\xc0\x00\x00", 4);
  patched = g_bytes_new_take (d, size);
  b = tress_bfres_parse (patched, "last", &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (tress_bfres_evaluate (b, 0, 8), ==, -1.5);
  g_assert_cmpfloat (tress_bfres_evaluate (b, 0, 100), ==, -1.5);
  g_assert_cmpfloat (tress_bfres_evaluate (b, 0, 6), ==, 0.25);
}

static void
test_demo (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = tress_bfres_build_demo (&error);
  g_autoptr (TressBfres) b = NULL;
  g_autoptr (GPtrArray) problems = NULL;
  gboolean kinds[3] = { FALSE };

  g_assert_no_error (error);
  b = tress_bfres_parse (bytes, "demo", &error);
  g_assert_no_error (error);
  problems = tress_format_bfres.validate (b);
  g_assert_cmpuint (tress_problem_list_count (problems, TRESS_SEVERITY_WARNING), ==, 0);
  for (guint i = 0; i < tress_bfres_get_n_curves (b); i++)
    {
      TressBfresCurveInfo info;
      tress_bfres_get_curve_info (b, i, &info);
      if (g_str_equal (info.kind, "Skeletal") && info.curve_type == TRESS_BFRES_CURVE_CUBIC)
        kinds[0] = TRUE;
      if (g_str_equal (info.kind, "Bone visibility"))
        kinds[1] = TRUE;
      if (g_str_equal (info.kind, "Texture pattern"))
        kinds[2] = TRUE;
    }
  g_assert_true (kinds[0] && kinds[1] && kinds[2]);
  /* The blink's bool keys are stored as real files store them: bits of u32
   * words (key type 32-bit). A reader that reads the key array as one integer
   * of the curve's key type, low bit first (as the public BfresLibrary does),
   * gets the keys: 1 0 1 1. */
  {
    int blink = tress_bfres_find_curve (b, "Blink/Eyelid");
    TressBfresCurveInfo info;
    g_autoptr (GBytes) raw = tress_bfres_get_bfres_bytes (b);
    const guint8 *d = g_bytes_get_data (raw, NULL);
    static const int want[] = { 1, 0, 1, 1 };
    static const double frames[] = { 0, 50, 54, 60 };
    guint32 bits;

    g_assert_cmpint (blink, >=, 0);
    tress_bfres_get_curve_info (b, (guint)blink, &info);
    g_assert_cmpint (info.curve_type, ==, TRESS_BFRES_CURVE_STEP_BOOL);
    g_assert_cmpint (info.key_type, ==, TRESS_BFRES_KEY_32);
    g_assert_cmpuint (info.n_keys, ==, 4);
    bits = ref_u32 (d, info.keys_pos);
    for (guint k = 0; k < 4; k++)
      {
        g_assert_cmpint ((bits >> k) & 1, ==, want[k]);
        g_assert_cmpfloat (tress_bfres_evaluate (b, (guint)blink, frames[k]), ==, want[k]);
      }
  }
  /* The arm waves: Rotate Z goes up and down over the loop. */
  {
    int arm = tress_bfres_find_curve (b, "Wave/Arm_L/Rotate Z");
    g_assert_cmpint (arm, >=, 0);
    /* A path no curve has, or only the start of one, finds none. */
    g_assert_cmpint (tress_bfres_find_curve (b, "Wave/Arm_L/Rotate Q"), ==, -1);
    g_assert_cmpint (tress_bfres_find_curve (b, "Wave/Arm_L"), ==, -1);
    g_assert_cmpfloat (tress_bfres_evaluate (b, arm, 15), >, 1.1);
    g_assert_cmpfloat (tress_bfres_evaluate (b, arm, 45), <, -1.1);
  }
}

/* The demo's model as other readers walk it. Every material is a whole Wii U FMAT header (0x4C
 * bytes, as the public BfresLibrary reads it: counts, then the render info,
 * render state, shader assign, texture, sampler, parameter and user data
 * offsets and a user pointer), with every count 0 and every offset null, and
 * no two headers overlap: a reader walking them finds no data that is not
 * there. Read from the bytes, not through the parser. */
static void
test_demo_materials (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = tress_bfres_build_demo (&error);
  const guint8 *d;
  gsize size, fmdl, group, prev = 0;
  guint n_materials;
  gint32 n_entries;

  g_assert_no_error (error);
  d = g_bytes_get_data (bytes, &size);
  g_assert_cmpmem (d, 4, "FRES", 4);
  g_assert_cmpuint (ref_u16 (d, 0x50), ==, 1); /* one model */
  group = ref_target (d, 0x20);
  g_assert_cmpuint (group, !=, 0);
  fmdl = ref_target (d, group + 8 + 16 + 12); /* the group's first entry */
  g_assert_cmpmem (d + fmdl, 4, "FMDL", 4);
  n_materials = ref_u16 (d, fmdl + 0x24);
  g_assert_cmpuint (n_materials, >, 0);
  group = ref_target (d, fmdl + 0x18);
  g_assert_cmpuint (group, !=, 0);
  n_entries = (gint32)ref_u32 (d, group + 4);
  g_assert_cmpint (n_entries, ==, (gint32)n_materials);
  for (guint i = 0; i < n_materials; i++)
    {
      gsize fmat = ref_target (d, group + 8 + 16 * (i + 1) + 12);
      g_autofree char *name = ref_name (d, fmat + 4);

      g_assert_cmpuint (fmat + 0x4C, <=, size);
      g_assert_cmpmem (d + fmat, 4, "FMAT", 4);
      g_assert_cmpstr (name, !=, "");
      g_assert_cmpuint (ref_u32 (d, fmat + 8) & 1, ==, 1); /* visible */
      g_assert_cmpuint (ref_u16 (d, fmat + 0x0C), ==, i);
      for (gsize at = 0x0E; at < 0x1C; at++)
        g_assert_cmpuint (d[fmat + at], ==, 0);
      for (gsize at = 0x1C; at < 0x4C; at += 4)
        g_assert_cmpuint (ref_u32 (d, fmat + at), ==, 0);
      g_assert_true (prev == 0 || fmat >= prev + 0x4C || fmat + 0x4C <= prev);
      prev = fmat;
    }
  /* Every shape, rigid ones too, has a skin bone list (empty, not null)
   * and sub-mesh boundings, the radius that of the box's sphere. */
  group = ref_target (d, fmdl + 0x14);
  g_assert_cmpuint (ref_u16 (d, fmdl + 0x22), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      gsize fshp = ref_target (d, group + 8 + 16 * (i + 1) + 12), bounds;
      double r2 = 0;

      g_assert_cmpmem (d + fshp, 4, "FSHP", 4);
      g_assert_cmpuint (ref_target (d, fshp + 0x28), !=, 0);
      bounds = ref_target (d, fshp + 0x30);
      g_assert_cmpuint (bounds, !=, 0);
      for (guint k = 0; k < 3; k++)
        {
          double e = ref_f32 (d, bounds + 12 + 4 * k);

          g_assert_cmpfloat (e, >=, 0);
          r2 += e * e;
        }
      g_assert_cmpfloat (r2, >, 0);
      g_assert_cmpfloat_with_epsilon (ref_f32 (d, fshp + 0x1C), sqrt (r2), 1e-5);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/bfres/builder/combinations", test_combinations);
  g_test_add_func ("/bfres/builder/index-group-trie", test_index_group_trie);
  g_test_add_func ("/bfres/builder/demo", test_demo);
  g_test_add_func ("/bfres/builder/demo-materials", test_demo_materials);
  g_test_add_func ("/bfres/builder/empty-name", test_empty_name);
  g_test_add_func ("/bfres/builder/last-key-unused-slope", test_last_key_unused_slope);
  return g_test_run ();
}
