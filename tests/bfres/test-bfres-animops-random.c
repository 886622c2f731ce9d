/* test-bfres-animops-random.c: whole-animation operations on every animation
 * kind and curve type (a file made by the builder), and seeded random cases
 * over the real samples, read back with the format page's reader
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "bfres-animops-test.h"
#include "formats/bfres/tress-bfres-builder.h"

#define SEED 0x5EED2024u

/* ---- every kind ------------------------------------------------------------------------ */

static void
add (TressBfresBuilder *b, TressBfresCurveType ct, TressBfresFrameType ft, TressBfresKeyType kt,
     guint32 target, const char *name, const TressKey *keys, guint n)
{
  TressBfresBuilderCurve c = { 0 };

  c.curve_type = ct;
  c.frame_type = ft;
  c.key_type = kt;
  c.target_offset = target;
  c.name = name;
  c.keys = keys;
  c.n_keys = n;
  tress_bfres_builder_add_curve (b, &c);
}

/* Skeletal "Walk" (Cubic, Linear, BakedFloat), shader param "Glow", texture
 * pattern "Blink" (StepInt, BakedInt), bone visibility "Hide" (StepBool,
 * BakedBool over 40 frames), material visibility "Fade". */
static GBytes *
build_kinds (void)
{
  g_autoptr (TressBfresBuilder) b = tress_bfres_builder_new ("Kinds", 0x04050003);
  g_autoptr (GError) error = NULL;
  TressKey cubic[4] = { { .frame = 0, .value = 0, .out_slope = 0.3 },
                        { .frame = 5, .value = 1.5, .in_slope = 0.1, .out_slope = 0.1 },
                        { .frame = 10, .value = -0.5, .in_slope = -0.2, .out_slope = -0.2 },
                        { .frame = 20, .value = 2, .in_slope = 0 } };
  TressKey linear[3]
      = { { .frame = 0, .value = 0 }, { .frame = 2.5, .value = 1 }, { .frame = 20, .value = -1 } };
  TressKey baked[9], bake_int[6], bake_bool[40];
  TressKey step_int[3]
      = { { .frame = 0, .value = 0 }, { .frame = 2, .value = 1 }, { .frame = 4, .value = 2 } };
  TressKey step_bool[3]
      = { { .frame = 0, .value = 1 }, { .frame = 3, .value = 0 }, { .frame = 6, .value = 1 } };
  GBytes *out;

  for (guint i = 0; i < G_N_ELEMENTS (baked); i++)
    baked[i] = (TressKey){ .frame = i, .value = 3 * sin (i) };
  for (guint i = 0; i < G_N_ELEMENTS (bake_int); i++)
    bake_int[i] = (TressKey){ .frame = i, .value = (i * 5) % 3 };
  for (guint i = 0; i < G_N_ELEMENTS (bake_bool); i++)
    bake_bool[i] = (TressKey){ .frame = i, .value = (i * 7) % 3 == 0 };

  tress_bfres_builder_begin_anim (b, TRESS_BFRES_ANIM_SKELETAL, "Walk", 20, TRUE);
  tress_bfres_builder_add_bone (b, "Root");
  add (b, TRESS_BFRES_CURVE_CUBIC, TRESS_BFRES_FRAME_U8, TRESS_BFRES_KEY_S16, 0x10, NULL, cubic, 4);
  add (b, TRESS_BFRES_CURVE_LINEAR, TRESS_BFRES_FRAME_S10_5, TRESS_BFRES_KEY_32, 0x14, NULL, linear,
       3);
  add (b, TRESS_BFRES_CURVE_BAKED_FLOAT, TRESS_BFRES_FRAME_U8, TRESS_BFRES_KEY_S16, 0x18, NULL,
       baked, G_N_ELEMENTS (baked));
  tress_bfres_builder_begin_anim (b, TRESS_BFRES_ANIM_SHADER_PARAM, "Glow", 10, FALSE);
  tress_bfres_builder_add_material (b, "Mat");
  tress_bfres_builder_add_param (b, "gsys_p");
  add (b, TRESS_BFRES_CURVE_CUBIC, TRESS_BFRES_FRAME_U8, TRESS_BFRES_KEY_S8, 0, NULL, cubic, 3);
  tress_bfres_builder_begin_anim (b, TRESS_BFRES_ANIM_TEX_PATTERN, "Blink", 6, TRUE);
  tress_bfres_builder_add_texture (b, "Tex_A");
  tress_bfres_builder_add_texture (b, "Tex_B");
  tress_bfres_builder_add_texture (b, "Tex_C");
  tress_bfres_builder_add_material (b, "Mat");
  add (b, TRESS_BFRES_CURVE_STEP_INT, TRESS_BFRES_FRAME_U8, TRESS_BFRES_KEY_S8, 0, "_a0", step_int,
       3);
  add (b, TRESS_BFRES_CURVE_BAKED_INT, TRESS_BFRES_FRAME_U8, TRESS_BFRES_KEY_S8, 0, "_a1", bake_int,
       G_N_ELEMENTS (bake_int));
  tress_bfres_builder_begin_anim (b, TRESS_BFRES_ANIM_BONE_VISIBILITY, "Hide", 40, FALSE);
  add (b, TRESS_BFRES_CURVE_STEP_BOOL, TRESS_BFRES_FRAME_U8, TRESS_BFRES_KEY_S8, 0, "Root",
       step_bool, 3);
  add (b, TRESS_BFRES_CURVE_BAKED_BOOL, TRESS_BFRES_FRAME_U8, TRESS_BFRES_KEY_S8, 0, "Arm",
       bake_bool, G_N_ELEMENTS (bake_bool));
  tress_bfres_builder_begin_anim (b, TRESS_BFRES_ANIM_MAT_VISIBILITY, "Fade", 4, TRUE);
  add (b, TRESS_BFRES_CURVE_STEP_BOOL, TRESS_BFRES_FRAME_U8, TRESS_BFRES_KEY_S8, 0, "Mat",
       step_bool, 2);
  out = tress_bfres_builder_finish (b, &error);
  g_assert_no_error (error);
  return out;
}

static const struct
{
  const char *name;
  int group;
} kinds[] = {
  { "Walk", 2 }, { "Glow", 3 }, { "Blink", 6 }, { "Hide", 7 }, { "Fade", 8 },
};

/* Retimes @name of @b by @scale; checks the values and that nothing else
 * changed. */
static void
retime_checked (TressBfres *b, const char *name, int g, double scale, gboolean widen)
{
  g_autoptr (GBytes) before = tress_bfres_get_bfres_bytes (b), after = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) ranges = NULL, curves = NULL;
  const guint8 *da = g_bytes_get_data (before, NULL), *db;
  gsize pa = ref_anim_find (da, g, name), pb;

  g_assert_true (tress_bfres_retime (b, anim (b, name), scale, widen, NULL, &error));
  g_assert_no_error (error);
  after = tress_bfres_get_bfres_bytes (b);
  db = g_bytes_get_data (after, NULL);
  pb = ref_anim_find (db, g, name);
  g_assert_cmpuint (pa, ==, pb);
  ref_check_retimed (da, pa, db, pb, g, scale);
  curves = ref_anim_curves (db, g, pb);
  g_assert_cmpuint (ref_anim_baked_size (db, g, pb), ==, ref_baked_formula (db, curves));
  ranges = retime_ranges (da, g, pa);
  ref_assert_same_except (before, after, ranges);
  assert_clean (b);
}

static void
test_kinds_retime (void)
{
  g_autoptr (GBytes) file = build_kinds ();
  g_autoptr (TressBfres) b = parse_ok (file);
  g_autoptr (GBytes) before = tress_bfres_get_bfres_bytes (b), after = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GArray) curves = NULL;
  const guint8 *d;

  /* The samples a BakedFloat curve passes through between its s16 steps:
   * a cost, refused; a factor that is not whole: refused even widened. */
  g_assert_false (tress_bfres_retime (b, anim (b, "Walk"), 2, FALSE, NULL, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_assert_nonnull (strstr (error->message, "Walk/Root/Translate Z: "));
  g_assert_nonnull (strstr (error->message, "of the 8 samples put between the old ones fall "
                                            "between the s16 steps"));
  g_assert_nonnull (strstr (error->message, "f32 keys (1 baked curve)"));
  g_clear_error (&error);
  g_assert_false (tress_bfres_retime (b, anim (b, "Walk"), 1.5, TRUE, NULL, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_assert_nonnull (strstr (error->message, "one sample a frame"));
  g_clear_error (&error);
  assert_untouched (b, before);

  for (guint k = 1; k < G_N_ELEMENTS (kinds); k++)
    retime_checked (b, kinds[k].name, kinds[k].group, 2, FALSE);
  retime_checked (b, "Blink", 6, 3, FALSE);
  retime_checked (b, "Glow", 3, 1.5, TRUE);
  g_assert_false (tress_bfres_retime (b, anim (b, "Hide"), 0.5, TRUE, NULL, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_assert_nonnull (strstr (error->message, "Hide/Arm: a BakedBool curve holds one sample a frame; "
                                            "×0.5 would drop some of them"));
  g_clear_error (&error);
  retime_checked (b, "Walk", 2, 2, TRUE);
  after = tress_bfres_get_bfres_bytes (b);
  d = g_bytes_get_data (after, NULL);
  curves = ref_anim_curves (d, 2, ref_anim_find (d, 2, "Walk"));
  {
    RefCurve c;

    ref_curve_read (d, g_array_index (curves, gsize, 2), TRUE, &c);
    g_assert_cmpuint (c.ct, ==, 2);
    g_assert_cmpuint (c.kt, ==, 0);
    g_assert_cmpuint (c.n, ==, 17);
    g_assert_cmpfloat (c.scale, ==, 1);
    g_assert_cmpfloat (c.offset, ==, 0);
  }
  g_assert_true (tress_bfres_retime (b, anim (b, "Fade"), 1.25, TRUE, notes, &error));
  g_assert_no_error (error);
  g_assert_true (notes_have (notes, "Fade: 8 → 10 frames"));
  g_assert_true (notes_have (notes, "Fade/Mat: frames u8 → s10.5 (2 keys)"));
}

static void
test_kinds_structure (void)
{
  g_autoptr (GBytes) file = build_kinds ();
  g_autoptr (TressBfres) b = parse_ok (file);
  g_autoptr (GError) error = NULL;

  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      g_autoptr (GBytes) before = tress_bfres_get_bfres_bytes (b), after = NULL;
      g_autofree char *copy = g_strdup_printf ("%s_copy", kinds[k].name);
      g_autoptr (GArray) ranges = g_array_new (FALSE, FALSE, sizeof (RefRange));
      const guint8 *da = g_bytes_get_data (before, NULL), *db;
      int g = kinds[k].group;
      gsize pa = ref_anim_find (da, g, kinds[k].name), pos;
      TressBfresAnimInfo info;

      /* A copy reads as the original; the loop bit flips where each kind
       * keeps it (u32 flags: byte 0x0F; u16 flags: byte 0x0D). */
      g_assert_true (tress_bfres_duplicate_anim (b, anim (b, kinds[k].name), copy, NULL, &error));
      g_assert_no_error (error);
      after = tress_bfres_get_bfres_bytes (b);
      db = g_bytes_get_data (after, NULL);
      ref_assert_groups_searchable (db);
      assert_same_anim (da, pa, db, ref_anim_find (db, g, copy), g);
      assert_clean (b);
      g_clear_pointer (&before, g_bytes_unref);
      before = g_steal_pointer (&after);
      da = g_bytes_get_data (before, NULL);
      pos = ref_anim_find (da, g, copy);
      tress_bfres_get_anim_info (b, anim (b, copy), &info);
      g_assert_true (tress_bfres_set_anim_loop (b, anim (b, copy), !info.loops, &error));
      after = tress_bfres_get_bfres_bytes (b);
      db = g_bytes_get_data (after, NULL);
      ref_allow (ranges, pos + (g <= 5 ? 0x0F : 0x0D), 1);
      ref_assert_same_except (before, after, ranges);
      g_assert_cmpuint (db[pos + (g <= 5 ? 0x0F : 0x0D)] ^ da[pos + (g <= 5 ? 0x0F : 0x0D)], ==, 4);

      /* The original goes, the copy takes its name. */
      g_assert_true (tress_bfres_delete_anim (b, anim (b, kinds[k].name), NULL, &error));
      g_assert_true (tress_bfres_rename_anim (b, anim (b, copy), kinds[k].name, NULL, &error));
      g_assert_no_error (error);
      g_clear_pointer (&after, g_bytes_unref);
      after = tress_bfres_get_bfres_bytes (b);
      db = g_bytes_get_data (after, NULL);
      ref_assert_groups_searchable (db);
      g_assert_cmpuint (ref_anim_find (db, g, copy), ==, 0);
      g_assert_cmpuint (ref_anim_find (db, g, kinds[k].name), ==, pos);
      assert_clean (b);
    }
  g_assert_cmpuint (tress_bfres_get_n_anims (b), ==, G_N_ELEMENTS (kinds));
  /* Before 3.4, no sample confirms the sub-file layouts a copy needs. */
  {
    g_autoptr (TressBfresBuilder) old = tress_bfres_builder_new ("Old", 0x03030000);
    TressKey keys[2] = { { .frame = 0, .value = 1 }, { .frame = 4, .value = 0 } };
    g_autoptr (GBytes) bytes = NULL;
    g_autoptr (TressBfres) o = NULL;

    tress_bfres_builder_begin_anim (old, TRESS_BFRES_ANIM_BONE_VISIBILITY, "Vis", 4, FALSE);
    add (old, TRESS_BFRES_CURVE_STEP_BOOL, TRESS_BFRES_FRAME_U8, TRESS_BFRES_KEY_S8, 0, "Arm", keys,
         2);
    bytes = tress_bfres_builder_finish (old, &error);
    o = parse_ok (bytes);
    g_assert_false (tress_bfres_duplicate_anim (o, 0, "Vis2", NULL, &error));
    g_assert_error (error, TRESS_ERROR, TRESS_ERROR_UNSUPPORTED);
    g_clear_error (&error);
    g_assert_true (tress_bfres_rename_anim (o, 0, "Vis2", NULL, &error));
    g_assert_true (tress_bfres_retime (o, 0, 2, FALSE, NULL, &error));
    g_assert_no_error (error);
  }
}

/* ---- random cases over the samples ------------------------------------------------------- */

/* Whether every frame of the animation at @pos, times @scale, fits its
 * curve's frame type; *ft_out (per curve) gets the narrowest type that holds
 * them all. */
static gboolean
ref_retime_fits (const guint8 *d, gsize pos, double scale, GArray *ft_out)
{
  g_autoptr (GArray) curves = ref_anim_curves (d, 2, pos);
  gboolean fits = TRUE;

  for (guint i = 0; i < curves->len; i++)
    {
      RefCurve c;
      int ft;

      ref_curve_read (d, g_array_index (curves, gsize, i), TRUE, &c);
      for (ft = c.ft; ft >= 0; ft--)
        {
          guint k = 0;

          while (k < c.n && ref_frame_fits (ft, scale * ref_frame (&c, k)))
            k++;
          if (k == c.n)
            break;
        }
      fits &= ft == (int)c.ft;
      g_array_append_val (ft_out, ft);
    }
  return fits;
}

static void
random_sample (const char *sample, guint cases)
{
  static const double scales[] = { 2, 3, 0.5, 0.25, 1.5, 1.25, 0.75, 4, 0.125, 5 };
  g_autoptr (GBytes) bytes = tress_test_load_sample (sample);
  g_autoptr (GRand) rand = g_rand_new_with_seed (SEED);
  g_autoptr (TressBfres) b = NULL;

  if (bytes == NULL)
    return;
  b = parse_ok (bytes);
  for (guint n = 0; n < cases; n++)
    {
      g_autoptr (GBytes) before = tress_bfres_get_bfres_bytes (b), after = NULL;
      g_autoptr (GError) error = NULL;
      g_autoptr (GArray) types = g_array_new (FALSE, FALSE, sizeof (int));
      g_autoptr (GArray) ranges = NULL, curves = NULL, old = NULL;
      g_autofree char *name = NULL;
      guint a = (guint)g_rand_int_range (rand, 0, (gint32)tress_bfres_get_n_anims (b));
      double scale = scales[g_rand_int_range (rand, 0, G_N_ELEMENTS (scales))];
      gboolean widen = g_rand_boolean (rand), fits;
      const guint8 *da = g_bytes_get_data (before, NULL), *db;
      TressBfresAnimInfo info;
      gsize pa, pb;
      double last = 0;

      tress_bfres_get_anim_info (b, a, &info);
      /* The info's name is the model's: gone with the bytes it had. */
      name = g_strdup (info.name);
      pa = ref_anim_find (da, 2, name);
      fits = ref_retime_fits (da, pa, scale, types);
      g_test_message ("%s: %s ×%g%s", sample, name, scale, widen ? " --widen" : "");
      if (!fits && !widen)
        {
          g_assert_false (tress_bfres_retime (b, a, scale, widen, NULL, &error));
          g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
          assert_untouched (b, before);
          continue;
        }
      g_assert_true (tress_bfres_retime (b, a, scale, widen, NULL, &error));
      g_assert_no_error (error);
      after = tress_bfres_get_bfres_bytes (b);
      db = g_bytes_get_data (after, NULL);
      pb = ref_anim_find (db, 2, name);
      ref_check_retimed (da, pa, db, pb, 2, scale);
      curves = ref_anim_curves (db, 2, pb);
      old = ref_anim_curves (da, 2, pa);
      for (guint i = 0; i < curves->len; i++)
        {
          RefCurve c, o;

          ref_curve_read (db, g_array_index (curves, gsize, i), TRUE, &c);
          g_assert_cmpint ((int)c.ft, ==, g_array_index (types, int, i));
          ref_curve_read (da, g_array_index (old, gsize, i), TRUE, &o);
          if (o.n > 0 && ref_frame (&o, o.n - 1) <= info.frame_count)
            last = MAX (last, ref_frame (&c, c.n - 1));
        }
      /* Rounded to whole frames, never below a last key it held. */
      g_assert_cmpfloat (fabs (ref_anim_frame_count (db, pb) - scale * info.frame_count), <, 1);
      g_assert_cmpfloat (ref_anim_frame_count (db, pb), >=, last);
      g_assert_cmpuint (ref_anim_baked_size (db, 2, pb), ==, ref_baked_formula (db, curves));
      ranges = retime_ranges (da, 2, pa);
      ref_assert_same_except (before, after, ranges);
    }
  assert_clean (b);
}

static void
test_random_bass (void)
{
  random_sample ("bfres/Animal_Bass_Animation.bfres", 40);
}

static void
test_random_dog (void)
{
  random_sample ("bfres/Animal_Dog_Animation.bfres", 12);
}

/* Random duplicates, renames and deletes: the groups stay searchable and
 * hold the names the test expects; each animation's curves read as before. */
static void
test_random_structure (void)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample ("bfres/Animal_Bass_Animation.bfres");
  g_autoptr (GRand) rand = g_rand_new_with_seed (SEED + 1);
  g_autoptr (TressBfres) b = NULL;
  g_autoptr (GBytes) original = NULL;
  g_autoptr (GHashTable) source = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  if (bytes == NULL)
    return;
  b = parse_ok (bytes);
  original = tress_bfres_get_bfres_bytes (b);
  /* Each name → the original animation whose curves it must hold. */
  for (guint i = 0; i < tress_bfres_get_n_anims (b); i++)
    {
      TressBfresAnimInfo info;

      tress_bfres_get_anim_info (b, i, &info);
      g_hash_table_insert (source, g_strdup (info.name), g_strdup (info.name));
    }
  for (guint n = 0; n < 30; n++)
    {
      g_autoptr (GError) error = NULL;
      guint count = tress_bfres_get_n_anims (b);
      guint a = count > 0 ? (guint)g_rand_int_range (rand, 0, (gint32)count) : 0;
      int op = count == 0 ? 0 : g_rand_int_range (rand, 0, 3);
      g_autofree char *name = g_strdup_printf ("A%u_%u", n, g_rand_int (rand) % 1000);
      g_autofree char *was = NULL;
      TressBfresAnimInfo info = { 0 };

      if (count == 0)
        break;
      tress_bfres_get_anim_info (b, a, &info);
      /* The info's name is the model's: gone with the bytes it had. */
      was = g_strdup (info.name);
      if (op == 0)
        {
          g_assert_true (tress_bfres_duplicate_anim (b, a, name, NULL, &error));
          g_hash_table_insert (source, g_strdup (name),
                               g_strdup (g_hash_table_lookup (source, was)));
        }
      else if (op == 1)
        {
          char *from = g_strdup (g_hash_table_lookup (source, was));

          g_assert_true (tress_bfres_rename_anim (b, a, name, NULL, &error));
          g_hash_table_remove (source, was);
          g_hash_table_insert (source, g_strdup (name), from);
        }
      else
        {
          g_assert_true (tress_bfres_delete_anim (b, a, NULL, &error));
          g_hash_table_remove (source, was);
        }
      g_assert_no_error (error);
    }
  {
    g_autoptr (GBytes) now = tress_bfres_get_bfres_bytes (b);
    const guint8 *d = g_bytes_get_data (now, NULL), *o = g_bytes_get_data (original, NULL);
    GHashTableIter it;
    gpointer key, value;
    guint n;

    ref_assert_groups_searchable (d);
    ref_group (d, 2, &n);
    g_assert_cmpuint (n, ==, g_hash_table_size (source));
    g_hash_table_iter_init (&it, source);
    while (g_hash_table_iter_next (&it, &key, &value))
      {
        gsize pos = ref_anim_find (d, 2, key);

        g_assert_cmpuint (pos, !=, 0);
        /* An original (perhaps renamed) stands where it stood. */
        if (pos != ref_anim_find (o, 2, value))
          assert_same_anim (o, ref_anim_find (o, 2, value), d, pos, 2);
      }
    assert_clean (b);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/bfres/animops/kinds-retime", test_kinds_retime);
  g_test_add_func ("/bfres/animops/kinds-structure", test_kinds_structure);
  g_test_add_func ("/bfres/animops/random-bass", test_random_bass);
  g_test_add_func ("/bfres/animops/random-dog", test_random_dog);
  g_test_add_func ("/bfres/animops/random-structure", test_random_structure);
  return g_test_run ();
}
