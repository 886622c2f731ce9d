/* tress-cha-demo.c: the project's own demo creatures
 *
 * A four-legged creature built from capsules, one per body part (pelvis,
 * spine, chest, neck, head, jaw, tail, four legs with their shins; bare
 * toes). Fur ribbons sit on the capsule surfaces, lie along the body (toward
 * the tail, down the legs and the tail) and droop with each section, follow
 * their own part and blend towards the neighbouring parts near the joints.
 * The fur is short for the part's size (a longer mane and tail tuft), so the
 * body's shape shows. Morphs push the fur out (fat, strong) or in (thin,
 * weak); moralities lengthen it (evil more than good). Only IEEE-exact
 * operations (+ − × ÷ and sqrt) and a fixed-seed generator are used, so the
 * output is the same bytes everywhere.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-cha-demo.h"

#include <math.h>
#include <string.h>

#include "tress-cha-private.h"

#define N_PARTS 16
#define N_MORPHS 4

typedef struct
{
  const char *name;
  int parent;
  int child;
  float a[3], b[3];
  float radius;
  guint min_sections, max_sections;
  float share; /* relative amount of fur; 0 = bare */
  guint group; /* 0 torso, 1 mane, 2 legs, 3 tail: which material it goes to */
} Part;

/* x: left, y: up, z: forward (the creature faces +z). */
static const Part parts[N_PARTS] = {
  { "pelvis", -1, 1, { 0, 1.00f, -0.60f }, { 0, 1.05f, -0.20f }, 0.35f, 3, 5, 1.0f, 0 },
  { "spine", 0, 2, { 0, 1.05f, -0.20f }, { 0, 1.10f, 0.30f }, 0.38f, 3, 5, 1.2f, 0 },
  { "chest", 1, 3, { 0, 1.05f, 0.30f }, { 0, 1.00f, 0.70f }, 0.40f, 3, 6, 1.2f, 0 },
  { "neck", 2, 4, { 0, 1.10f, 0.70f }, { 0, 1.45f, 1.00f }, 0.22f, 5, 7, 1.4f, 1 },
  { "head", 3, 5, { 0, 1.45f, 1.00f }, { 0, 1.40f, 1.40f }, 0.20f, 4, 7, 1.0f, 1 },
  { "jaw", 4, -1, { 0, 1.30f, 1.05f }, { 0, 1.25f, 1.40f }, 0.10f, 1, 3, 0.5f, 1 },
  { "tail", 0, -1, { 0, 1.05f, -0.60f }, { 0, 0.70f, -1.30f }, 0.07f, 4, 6, 0.6f, 3 },
  { "front-left leg",
    2,
    8,
    { 0.25f, 0.90f, 0.60f },
    { 0.25f, 0.45f, 0.65f },
    0.12f,
    2,
    4,
    0.5f,
    2 },
  { "front-left shin",
    7,
    -1,
    { 0.25f, 0.45f, 0.65f },
    { 0.25f, 0.05f, 0.65f },
    0.08f,
    1,
    2,
    0.3f,
    2 },
  { "front-right leg",
    2,
    10,
    { -0.25f, 0.90f, 0.60f },
    { -0.25f, 0.45f, 0.65f },
    0.12f,
    2,
    4,
    0.5f,
    2 },
  { "front-right shin",
    9,
    -1,
    { -0.25f, 0.45f, 0.65f },
    { -0.25f, 0.05f, 0.65f },
    0.08f,
    1,
    2,
    0.3f,
    2 },
  { "hind-left leg",
    0,
    12,
    { 0.25f, 0.95f, -0.50f },
    { 0.25f, 0.45f, -0.55f },
    0.14f,
    2,
    4,
    0.5f,
    2 },
  { "hind-left shin",
    11,
    -1,
    { 0.25f, 0.45f, -0.55f },
    { 0.25f, 0.05f, -0.50f },
    0.08f,
    1,
    2,
    0.3f,
    2 },
  { "hind-right leg",
    0,
    14,
    { -0.25f, 0.95f, -0.50f },
    { -0.25f, 0.45f, -0.55f },
    0.14f,
    2,
    4,
    0.5f,
    2 },
  { "hind-right shin",
    13,
    -1,
    { -0.25f, 0.45f, -0.55f },
    { -0.25f, 0.05f, -0.50f },
    0.08f,
    1,
    2,
    0.3f,
    2 },
  { "toes", 8, -1, { 0.25f, 0.05f, 0.65f }, { 0.25f, 0.0f, 0.75f }, 0.05f, 0, 0, 0.0f, 2 },
};

/* How long the fur of each group is, for a part of radius r: (r / 2 + 0.06)
 * times this (torso, mane, legs, tail): short on the body and the legs, so
 * the creature's shape shows, a longer mane and a tail tuft. */
static const float fur_length[4] = { 1.0f, 1.6f, 1.0f, 2.0f };
/* Moralities lengthen the fur by these factors (evil, good). */
static const float morality_length[2] = { 1.35f, 1.15f };

static const char *const morph_names[N_MORPHS] = { "fat", "thin", "strong", "weak" };
static const char *const morality_names[2] = { "evil", "good" };

/* ---- deterministic randomness ---------------------------------------------- */

typedef struct
{
  guint64 s;
} Rng;

static guint64
rng_next (Rng *r)
{
  guint64 z = (r->s += G_GUINT64_CONSTANT (0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94D049BB133111EB);
  return z ^ (z >> 31);
}

/* Uniform in [0, 1). */
static float
rng_float (Rng *r)
{
  return (float)(rng_next (r) >> 40) / 16777216.0f;
}

static guint
rng_range (Rng *r, guint lo, guint hi)
{
  return lo + (guint)(rng_next (r) % (hi - lo + 1));
}

/* ---- vectors ------------------------------------------------------------------ */

static void
normalize (float v[3])
{
  float len = sqrtf (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);

  if (len > 0.0f)
    for (guint i = 0; i < 3; i++)
      v[i] /= len;
}

static void
cross (const float a[3], const float b[3], float out[3])
{
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

/* ---- options ------------------------------------------------------------------ */

void
tress_cha_demo_options_init (TressChaDemoOptions *o)
{
  memset (o, 0, sizeof *o);
  o->n_ribbons = 2400;
  o->n_moralities = 2;
  o->n_materials = 2;
  o->size_convention = TRESS_CHA_SIZE_BODY;
  o->magic = NULL;
  o->hybrid = TRUE;
  o->trailing_section = FALSE;
  o->seed = 20050923; /* any fixed value */
}

const char *
tress_cha_demo_variant_names (void)
{
  return "creature, gorilla, stress, small, whole-size, seed-magic, upper-magic, trailing, single";
}

gboolean
tress_cha_demo_options_apply_variant (TressChaDemoOptions *o, const char *variant)
{
  if (g_str_equal (variant, "creature"))
    ;
  else if (g_str_equal (variant, "gorilla"))
    o->n_moralities = 0;
  else if (g_str_equal (variant, "stress"))
    o->n_ribbons = 100000;
  else if (g_str_equal (variant, "small"))
    o->n_ribbons = 60;
  else if (g_str_equal (variant, "whole-size"))
    o->size_convention = TRESS_CHA_SIZE_WHOLE;
  else if (g_str_equal (variant, "seed-magic"))
    o->magic = "LionheadCreature";
  else if (g_str_equal (variant, "upper-magic"))
    o->magic = "LIONHEADCREATURE";
  else if (g_str_equal (variant, "trailing"))
    o->trailing_section = TRUE;
  else if (g_str_equal (variant, "single"))
    {
      o->n_materials = 1;
      o->hybrid = FALSE;
    }
  else
    return FALSE;
  return TRUE;
}

/* ---- generation --------------------------------------------------------------- */

static guint
material_of (guint part, guint n_materials)
{
  guint g = parts[part].group;

  switch (n_materials)
    {
    case 1:
      return 0;
    case 2:
      return g == 1 ? 1 : 0;
    case 3:
      return g == 1 ? 1 : g == 2 ? 2 : 0;
    default:
      return MIN (g, n_materials - 1);
    }
}

static void
fill_uv (TressChaMaterial *m)
{
  guint i = 0;

  m->uv_rows = 7;
  m->uv_groups = 3;
  m->uv_pieces = 4;
  m->n_uv_floats = (guint32)(2 * tress_cha_uv_points (7, 3, 4));
  m->uv = g_new (float, m->n_uv_floats);
  for (guint row = 1; row <= 7; row++)
    for (guint g = 0; g < 3; g++)
      for (guint p = 0; p < 4; p++)
        {
          guint col = g * 4 + p;
          float u0 = (float)col / 12.0f + 0.005f, u1 = (float)(col + 1) / 12.0f - 0.005f;
          float top = (float)(row - 1) / 7.0f + 0.004f, bottom = (float)row / 7.0f - 0.004f;

          /* "Z" order: left, right, then the next pair down; 2·row + 2 points. */
          for (guint k = 0; k <= row; k++)
            {
              float v = top + (bottom - top) * (float)k / (float)row;
              m->uv[i++] = u0;
              m->uv[i++] = v;
              m->uv[i++] = u1;
              m->uv[i++] = v;
            }
        }
  g_assert (i == m->n_uv_floats);
}

/* Fills material @mi with @n ribbons spread over its parts. */
static void
fill_material (TressChaRadeon *rad, guint mi, guint n_materials, guint n, Rng *rng)
{
  TressChaMaterial *m = &rad->materials[mi];
  gboolean on[N_PARTS] = { FALSE };
  gboolean listed[N_PARTS] = { FALSE };
  int entry[N_PARTS];
  guint count[N_PARTS] = { 0 };
  double total_share = 0.0;
  guint assigned = 0, max_lines;
  guint32 line = 0;

  /* Which parts carry this material's fur, and the applied list: those parts,
   * their neighbours (the references blend into them) and their bare
   * neighbours, in body-part order. */
  for (guint p = 0; p < N_PARTS; p++)
    if (parts[p].share > 0.0f && material_of (p, n_materials) == mi)
      {
        on[p] = TRUE;
        listed[p] = TRUE;
        if (parts[p].parent >= 0)
          listed[parts[p].parent] = TRUE;
        if (parts[p].child >= 0)
          listed[parts[p].child] = TRUE;
        total_share += parts[p].share * parts[p].radius;
      }
  if (total_share == 0.0) /* a material with no furred part: keep one bare entry */
    listed[0] = TRUE;
  m->applied = g_new (guint32, N_PARTS);
  for (guint p = 0; p < N_PARTS; p++)
    {
      entry[p] = -1;
      if (listed[p])
        {
          entry[p] = (int)m->n_applied;
          m->applied[m->n_applied++] = p;
        }
    }

  /* Ribbons per part, in proportion to fur share × radius (largest remainder). */
  if (total_share > 0.0)
    {
      double rem[N_PARTS] = { 0 };
      for (guint p = 0; p < N_PARTS; p++)
        if (on[p])
          {
            double exact = (double)n * parts[p].share * parts[p].radius / total_share;
            count[p] = (guint)exact;
            rem[p] = exact - (double)count[p];
            assigned += count[p];
          }
      /* Rounding may hand out one too many: take it back where the least was cut. */
      while (assigned > n)
        {
          int worst = -1;
          for (guint p = 0; p < N_PARTS; p++)
            if (count[p] > 0 && (worst < 0 || rem[p] < rem[worst]))
              worst = (int)p;
          count[worst]--;
          rem[worst] += 1.0;
          assigned--;
        }
      while (assigned < n)
        {
          int best = -1;
          for (guint p = 0; p < N_PARTS; p++)
            if (on[p] && (best < 0 || rem[p] > rem[best]))
              best = (int)p;
          count[best]++;
          rem[best] = -1.0;
          assigned++;
        }
    }
  else
    n = 0;

  m->always_one = 1;
  g_snprintf ((char *)m->description, sizeof m->description, "t_strand fur material %u", mi);
  for (guint i = 64; i < TRESS_CHA_DESCRIPTION_SIZE; i += 16)
    m->description[i] = (guint8)(i / 16 + mi);
  m->line_size = TRESS_CHA_LINE_SIZE;
  m->n_ribbons = m->n_ribbons_again = m->n_ribbons_third = n;
  m->morphs_plus_one = rad->n_morphs + 1;
  m->moralities_plus_one = rad->n_moralities + 1;
  max_lines = 2 * TRESS_CHA_MAX_SECTIONS * MAX (n, 1);
  m->lines = g_new0 (TressChaLine, max_lines);
  m->base_points = g_new (float, 6 * (gsize)MAX (n, 1));
  m->morph_points = g_new0 (float *, N_MORPHS);
  for (guint k = 0; k < rad->n_morphs; k++)
    m->morph_points[k] = g_new (float, 6 * (gsize)MAX (n, 1));
  m->n_sections = g_new (guint32, MAX (n, 1));
  m->quality = g_new (guint32, MAX (n, 1));
  m->lengths = g_new0 (float *, rad->n_moralities + 1);
  for (guint k = 0; k <= rad->n_moralities; k++)
    m->lengths[k] = g_new (float, MAX (n, 1));
  m->zsort = g_new (float, 3 * (gsize)MAX (n, 1));
  m->attach = g_new (guint32, MAX (n, 1));
  m->first_line = g_new (guint32, MAX (n, 1));
  m->n_ribbon_lines = g_new (guint32, MAX (n, 1));
  fill_uv (m);

  {
    guint r = 0;
    for (guint p = 0; p < N_PARTS; p++)
      for (guint i = 0; i < count[p]; i++, r++)
        {
          const Part *part = &parts[p];
          float axis[3], e1[3], e2[3], nrm[3], tangent[3], c[3], up[3] = { 0, 1, 0 };
          float u = rng_float (rng), t = 2.0f * rng_float (rng) - 1.0f;
          float cs = (1 - t * t) / (1 + t * t), sn = 2 * t / (1 + t * t);
          /* Fur lies along the body toward the tail, down the legs and the
           * tail: the direction the part's axis runs, or against it. */
          float flow = part->group >= 2 ? 1.0f : -1.0f;
          float width = 0.02f + 0.02f * rng_float (rng);
          float *bp = &m->base_points[6 * (gsize)r];
          guint s = rng_range (rng, part->min_sections, part->max_sections);
          int near = -1;
          float blend = 0.0f, max = tress_cha_max_length (s);
          guint w_near, w_self;
          gboolean torso = part->group == 0 || part->group == 1;

          if (rng_next (rng) & 1)
            cs = -cs; /* the other half of the circle */
          for (guint k = 0; k < 3; k++)
            axis[k] = part->b[k] - part->a[k];
          normalize (axis);
          cross (axis, up, e1);
          if (e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2] < 1e-6f)
            {
              float side[3] = { 1, 0, 0 };
              cross (axis, side, e1);
            }
          normalize (e1);
          cross (axis, e1, e2);
          for (guint k = 0; k < 3; k++)
            {
              c[k] = part->a[k] + u * (part->b[k] - part->a[k]);
              nrm[k] = cs * e1[k] + sn * e2[k];
            }
          /* The base edge runs around the part (across the fur's flow along
           * it), so each ribbon is a strip lying on the body. */
          cross (axis, nrm, tangent);
          for (guint k = 0; k < 3; k++)
            {
              bp[k] = c[k] + part->radius * nrm[k];
              bp[3 + k] = bp[k] + width * tangent[k];
              m->zsort[3 * (gsize)r + k] = bp[k];
            }
          /* Morph displacements: fat/strong push out, thin/weak pull in. */
          for (guint mo = 0; mo < rad->n_morphs; mo++)
            {
              float amount = mo == 0   ? (torso ? 0.25f : 0.08f)
                             : mo == 1 ? -0.15f
                             : mo == 2 ? (torso ? 0.05f : 0.20f)
                                       : -0.08f;
              float *d = &m->morph_points[mo][6 * (gsize)r];
              for (guint k = 0; k < 3; k++)
                d[k] = d[3 + k] = amount * part->radius * nrm[k] + (mo == 3 ? -0.01f * up[k] : 0);
            }
          m->n_sections[r] = s;
          m->quality[r] = s <= 2 ? 0 : s <= 4 ? 1 : 2;
          {
            /* Short enough that every morality's longer fur stays within the
             * maximum for its sections. */
            float want = (part->radius / 2 + 0.06f) * fur_length[part->group]
                         * (0.8f + 0.4f * rng_float (rng));
            float room = max / morality_length[0];

            m->lengths[0][r] = want < room ? want : room;
          }
          for (guint mo = 0; mo < rad->n_moralities; mo++)
            m->lengths[1 + mo][r] = m->lengths[0][r] * morality_length[mo];
          m->attach[r] = p;
          m->first_line[r] = line;
          m->n_ribbon_lines[r] = 2 * s;

          /* Near a joint the ribbon also follows the neighbouring part. */
          if (u < 0.3f && part->parent >= 0 && entry[part->parent] >= 0)
            {
              near = part->parent;
              blend = 0.5f * (1.0f - u / 0.3f);
            }
          else if (u > 0.7f && part->child >= 0 && entry[part->child] >= 0)
            {
              near = part->child;
              blend = 0.5f * ((u - 0.7f) / 0.3f);
            }
          w_near = near >= 0 ? (guint)(255.0f * blend) : 0;
          w_self = 255 - w_near;
          for (guint k = 0; k < 2 * s; k++)
            {
              TressChaLine *l = &m->lines[line + k];
              guint sec = k / 2 + 1;
              int other = part->parent >= 0 ? part->parent : part->child;
              float droop = 0.25f * (float)sec + 0.05f * (float)(k & 1);

              for (guint j = 0; j < 3; j++)
                l->direction[j] = 0.6f * nrm[j] + flow * axis[j] - droop * up[j];
              normalize (l->direction);
              l->ambient = l->ambient_copy = tress_cha_ambient_step (sec);
              l->colour[0] = (guint8)(90 + 12 * sec + rng_range (rng, 0, 8));
              l->colour[1] = (guint8)(200 - 14 * sec);
              l->refs[0] = (guint16)(3 * entry[p]);
              l->refs[1] = (guint16)(3
                                     * (near >= 0                         ? entry[near]
                                        : other >= 0 && entry[other] >= 0 ? entry[other]
                                                                          : entry[p]));
              l->refs[2] = (guint16)(3 * entry[p]);
              /* Reversed: byte 26 weights refs[0]. */
              l->weights[2] = (guint8)w_self;
              l->weights[1] = (guint8)w_near;
              l->weights[0] = 0;
              l->mask[tress_cha_mask_byte (sec)] = 255;
            }
          line += 2 * s;
        }
  }
  m->n_lines = m->n_lines_again = line;
  m->line_array_size = TRESS_CHA_LINE_SIZE * line;
  m->lines = g_realloc (m->lines, MAX (line, 1) * sizeof (TressChaLine));
}

static TressChaRadeon *
build_radeon (const TressChaDemoOptions *o, guint n_ribbons, guint32 seed)
{
  TressChaRadeon *rad = g_new0 (TressChaRadeon, 1);
  guint n_materials = CLAMP (o->n_materials, 1, 4);
  float share[4] = { 0 }, total = 0.0f;
  guint given = 0;
  Rng rng = { seed };

  rad->n_morphs = N_MORPHS;
  rad->morph_names = g_malloc0 ((gsize)TRESS_CHA_NAME_SIZE * N_MORPHS);
  for (guint k = 0; k < N_MORPHS; k++)
    strcpy ((char *)rad->morph_names[k], morph_names[k]);
  rad->n_moralities = o->n_moralities >= 2 ? 2 : 0;
  rad->morality_names = g_malloc0 ((gsize)TRESS_CHA_NAME_SIZE * 2);
  for (guint k = 0; k < rad->n_moralities; k++)
    strcpy ((char *)rad->morality_names[k], morality_names[k]);
  rad->always_three = 3;
  rad->body_part_max = N_PARTS;
  rad->n_materials = n_materials;
  rad->materials = g_new0 (TressChaMaterial, n_materials);

  for (guint p = 0; p < N_PARTS; p++)
    {
      share[material_of (p, n_materials)] += parts[p].share * parts[p].radius;
      total += parts[p].share * parts[p].radius;
    }
  for (guint mi = 0; mi < n_materials; mi++)
    {
      guint n = mi + 1 == n_materials ? n_ribbons - given
                                      : (guint)((float)n_ribbons * share[mi] / total);
      fill_material (rad, mi, n_materials, n, &rng);
      given += n;
    }
  return rad;
}

TressChaFile *
tress_cha_demo_generate (const TressChaDemoOptions *o)
{
  TressChaFile *file = g_new0 (TressChaFile, 1);
  guint n_sections = 1 + (o->hybrid ? 1 : 0) + (o->trailing_section ? 1 : 0);
  guint i = 0;

  strncpy ((char *)file->magic, o->magic != NULL ? o->magic : "LiOnHeAdCreature",
           TRESS_CHA_MAGIC_SIZE - 1);
  file->header_four = CHA_HEADER_FOUR;
  file->version = CHA_VERSION;
  file->size_convention = o->size_convention;
  file->n_sections = n_sections;
  file->sections = g_new0 (TressChaSection, n_sections);

  strcpy ((char *)file->sections[i].name, "radeon");
  file->radeon = file->sections[i].radeon = build_radeon (o, MAX (o->n_ribbons, 1), o->seed);
  i++;
  if (o->hybrid)
    {
      /* The reduced fur set for weak cards: not described, so written as an
       * opaque body (here a radeon-style body with an eighth of the ribbons). */
      TressChaRadeon *reduced = build_radeon (o, MAX (o->n_ribbons / 8, 1), o->seed + 1);
      TressWriter w;

      tress_writer_init (&w, TRESS_LITTLE_ENDIAN, cha_radeon_body_size (reduced));
      cha_radeon_write_body (reduced, &w);
      strcpy ((char *)file->sections[i].name, "hybrid");
      file->sections[i].opaque = tress_writer_finish (&w);
      tress_writer_clear (&w);
      cha_radeon_free (reduced);
      i++;
    }
  if (o->trailing_section)
    {
      guint8 body[48];
      Rng rng = { o->seed + 2 };

      for (guint k = 0; k < sizeof body; k++)
        body[k] = (guint8)rng_next (&rng);
      strcpy ((char *)file->sections[i].name, "tress-unknown");
      file->sections[i].opaque = g_bytes_new (body, sizeof body);
    }
  return file;
}

GBytes *
tress_cha_demo_generate_bytes (const TressChaDemoOptions *o)
{
  g_autoptr (TressChaFile) file = tress_cha_demo_generate (o);

  return tress_cha_file_serialize (file);
}
