/* test-bfres-skeletal-random.c: seeded random rewrites of the samples' skeletal
 * animations (bones dropped and added, curves kept, made constant or new,
 * frame counts and tolerances changed), each checked with the independent
 * decoder. The seed is printed; TRESS_TEST_SEED=N repeats a run.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "bfres-skeletal-test.h"

#define N_ROUNDS 50

static guint32
test_seed (void)
{
  const char *env = g_getenv ("TRESS_TEST_SEED");

  return env != NULL ? (guint32)g_ascii_strtoull (env, NULL, 10) : (guint32)g_test_rand_int ();
}

/* A frame in [0, @frame_count]: whole mostly, sometimes 1/32 steps or any. */
static double
random_frame (GRand *r, int frame_count, guint kind)
{
  double f = g_rand_double_range (r, 0, frame_count);

  if (kind == 0)
    return round (f);
  if (kind == 1)
    return MIN (round (f * 32) / 32, frame_count);
  return f;
}

static int
compare_doubles (gconstpointer a, gconstpointer b)
{
  double x = *(const double *)a, y = *(const double *)b;

  return (x > y) - (x < y);
}

static TressCurve *
random_curve (GRand *r, int frame_count, TressBfresChannel ch)
{
  TressCurve *c = tress_curve_new ();
  guint n = (guint)g_rand_int_range (r, 1, 13), kind = 0;
  double amp = ch <= TRESS_BFRES_CHANNEL_SCALE_Z       ? 0.5
               : ch <= TRESS_BFRES_CHANNEL_TRANSLATE_Z ? 8
                                                       : 3;
  double centre = ch <= TRESS_BFRES_CHANNEL_SCALE_Z || ch == TRESS_BFRES_CHANNEL_ROTATE_W ? 1 : 0;
  TressInterp interp = g_rand_int_range (r, 0, 10) < 7 ? TRESS_INTERP_HERMITE : TRESS_INTERP_LINEAR;
  g_autoptr (GArray) frames = g_array_new (FALSE, FALSE, sizeof (double));
  int roll = g_rand_int_range (r, 0, 10);

  kind = roll < 7 ? 0 : roll < 9 ? 1 : 2;
  for (guint i = 0; i < n; i++)
    {
      double f = random_frame (r, frame_count, kind);

      g_array_append_val (frames, f);
    }
  g_array_sort (frames, compare_doubles);
  for (guint i = 0; i < frames->len; i++)
    {
      TressKey k = { 0 };

      if (i > 0 && g_array_index (frames, double, i) == g_array_index (frames, double, i - 1))
        continue;
      k.frame = g_array_index (frames, double, i);
      k.value = centre + g_rand_double_range (r, -amp, amp);
      k.in_slope = k.out_slope = g_rand_double_range (r, -amp, amp) / 10;
      k.interp = interp;
      tress_curve_append_key (c, &k);
    }
  if (g_rand_int_range (r, 0, 5) == 0)
    c->pre_wrap = c->post_wrap = TRESS_WRAP_REPEAT;
  return c;
}

static float
random_base (GRand *r, TressBfresChannel ch)
{
  if (ch <= TRESS_BFRES_CHANNEL_SCALE_Z)
    return g_rand_int_range (r, 0, 2) ? 1.0f : (float)g_rand_double_range (r, 0.5, 2);
  if (ch == TRESS_BFRES_CHANNEL_ROTATE_W)
    return 1.0f;
  return g_rand_int_range (r, 0, 2) ? 0.0f : (float)g_rand_double_range (r, -2, 2);
}

/* Bone names of the file's other skeletal animations (to add). */
static GPtrArray *
other_bone_names (GBytes *fres)
{
  const guint8 *d = g_bytes_get_data (fres, NULL);
  gsize group = ref_target (d, 0x20 + 4 * 2);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint e = 1; e <= ref_u32 (d, group + 4); e++)
    {
      RefFska f;
      RefBoneAnim *bones = skt_read_bones (d, ref_target (d, group + 8 + 16 * (gsize)e + 12), &f);

      for (guint i = 0; i < f.n_bones; i++)
        if (!g_hash_table_contains (seen, bones[i].name))
          {
            char *copy = g_strdup (bones[i].name);

            g_hash_table_add (seen, copy);
            g_ptr_array_add (names, copy);
          }
      skt_free_bones (bones, f.n_bones);
    }
  return names;
}

static void
random_bone (GRand *r, Spec *s, TressBfresBoneAnimSpec *bone, gboolean fresh)
{
  for (guint c = 0; c < TRESS_BFRES_N_CHANNELS; c++)
    {
      const TressCurve *had = bone->curves[c];
      int roll = g_rand_int_range (r, 0, 20);

      if (c == TRESS_BFRES_CHANNEL_ROTATE_W && s->euler)
        continue;
      if (had != NULL
          && tress_curve_get_key (had, tress_curve_get_n_keys (had) - 1)->frame > s->frame_count)
        roll = 19; /* it no longer fits: a new one */
      if (had != NULL && roll < 10)
        continue;
      if (had != NULL && roll < 14)
        {
          /* Made constant. */
          bone->curves[c] = NULL;
          bone->base[c] = random_base (r, c);
          continue;
        }
      if (had != NULL || roll < (fresh ? 5 : 3))
        spec_set_curve (s, bone, c, random_curve (r, s->frame_count, c));
      else if (roll < 6)
        bone->base[c] = random_base (r, c);
    }
  if (bone->curves[3] || bone->curves[4] || bone->curves[5])
    bone->bind_translation = FALSE;
  else if (g_rand_int_range (r, 0, 4) == 0)
    bone->bind_translation = !bone->bind_translation;
}

static Spec *
random_spec (GRand *r, TressBfres *b, GPtrArray *names, double *tolerance)
{
  g_autoptr (GArray) skeletal = g_array_new (FALSE, FALSE, sizeof (guint));
  Spec *s;
  int roll = g_rand_int_range (r, 0, 10);
  static const double tolerances[] = { 0, 0.0005, 0.01 };

  for (guint i = 0; i < tress_bfres_get_n_anims (b); i++)
    {
      TressBfresAnimInfo info;

      tress_bfres_get_anim_info (b, i, &info);
      if (strcmp (info.kind, "Skeletal") == 0)
        g_array_append_val (skeletal, i);
    }
  s = spec_from_file (
      b, g_array_index (skeletal, guint, g_rand_int_range (r, 0, (gint32)skeletal->len)));
  if (roll == 7)
    s->frame_count += g_rand_int_range (r, 1, 40);
  else if (roll == 8)
    s->frame_count = g_rand_int_range (r, 1, MAX (s->frame_count, 1) + 1);
  else if (roll == 9)
    s->frame_count = g_rand_int_range (r, 256, 400);
  for (guint i = s->bones->len; i-- > 0;)
    if (g_rand_int_range (r, 0, 8) == 0)
      g_array_remove_index (s->bones, i);
    else
      random_bone (r, s, spec_bone (s, i), FALSE);
  for (int k = g_rand_int_range (r, 0, 3); k > 0; k--)
    {
      const char *name = g_ptr_array_index (names, g_rand_int_range (r, 0, (gint32)names->len));
      g_autofree char *fresh = g_strdup_printf ("Extra_%u", g_rand_int (r) % 1000);
      TressBfresBoneAnimSpec *bone;

      if (g_rand_boolean (r) || spec_find_bone (s, name) >= 0)
        name = fresh;
      if (spec_find_bone (s, name) >= 0)
        continue;
      bone = spec_add_bone (s, (guint)g_rand_int_range (r, 0, (gint32)s->bones->len + 1), name);
      random_bone (r, s, bone, TRUE);
    }
  *tolerance = tolerances[g_rand_int_range (r, 0, 3)];
  return s;
}

static void
check_random (const char *rel)
{
  g_autoptr (GBytes) file = tress_test_load_sample (rel);
  g_autoptr (TressBfres) b = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) names = NULL;
  g_autoptr (GRand) r = NULL;
  guint32 seed = test_seed ();
  guint n_bones = 0, n_curves = 0, n_notes = 0;
  gsize grown = 0;

  if (file == NULL)
    return;
  g_test_message ("%s: seed %u (TRESS_TEST_SEED=%u repeats it)", rel, seed, seed);
  r = g_rand_new_with_seed (seed);
  b = tress_bfres_parse (file, rel, &error);
  g_assert_no_error (error);
  {
    g_autoptr (GBytes) fres = tress_bfres_get_bfres_bytes (b);

    names = other_bone_names (fres);
  }
  for (guint round = 0; round < N_ROUNDS; round++)
    {
      double tolerance;
      g_autoptr (Spec) s = random_spec (r, b, names, &tolerance);
      g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
      g_autoptr (GBytes) before = tress_bfres_get_bfres_bytes (b);
      g_autoptr (GBytes) after = NULL;

      if (!tress_bfres_replace_skeletal (b, s->anim, (TressBfresBoneAnimSpec *)s->bones->data,
                                         s->bones->len, s->frame_count, tolerance, notes, &error))
        g_error ("%s round %u (seed %u): %s", rel, round, seed, error->message);
      after = tress_bfres_get_bfres_bytes (b);
      skt_check_rewrite (before, after, s, tolerance, notes);
      n_bones += s->bones->len;
      for (guint i = 0; i < s->bones->len; i++)
        for (guint c = 0; c < TRESS_BFRES_N_CHANNELS; c++)
          n_curves += spec_bone (s, i)->curves[c] != NULL;
      n_notes += notes->len - 1;
      grown += g_bytes_get_size (after) - g_bytes_get_size (before);
    }
  g_test_message ("%s: %u rewrites, %u bones, %u curves, %u notes of widening or re-quantizing, "
                  "%" G_GSIZE_FORMAT " bytes appended",
                  rel, N_ROUNDS, n_bones, n_curves, n_notes, grown);
  /* Saved and read again after all of them. */
  {
    g_autoptr (GBytes) saved = tress_bfres_serialize (b, &error);
    g_autoptr (TressBfres) again = NULL;
    g_autoptr (GBytes) fres = tress_bfres_get_bfres_bytes (b);
    g_autoptr (GBytes) fres_again = NULL;

    g_assert_no_error (error);
    again = tress_bfres_parse (saved, rel, &error);
    g_assert_no_error (error);
    fres_again = tress_bfres_get_bfres_bytes (again);
    tress_test_assert_bytes_equal (fres_again, fres);
  }
}

static void
test_random_bass (void)
{
  check_random ("bfres/Animal_Bass_Animation.bfres");
}

static void
test_random_dog (void)
{
  check_random ("bfres/Animal_Dog_Animation.bfres");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/bfres/skeletal/random/bass", test_random_bass);
  g_test_add_func ("/bfres/skeletal/random/dog", test_random_dog);
  return g_test_run ();
}
