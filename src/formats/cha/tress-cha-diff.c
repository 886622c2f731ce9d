/* tress-cha-diff.c: what differs between two creature-fur files
 *
 * Compared on the models (a 100,000-ribbon file has some 4 million values):
 * one item per line and per ribbon that differs, with every member that does
 * (weights, body parts or references, direction, mask, attachment, points,
 * lengths …), located by the dump's JSON Pointers (/materials/M/lines/L,
 * /materials/M/ribbons/R); the material's own values, the names and header
 * values; the sections Tress keeps as bytes (hybrid, unknown) and the tail as
 * "bytes outside the model".
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "formats/tress-diff.h"
#include "tress-cha-private.h"

/* Values shown in a member's text; the JSON has them all. */
#define SHOWN_MAX 8

/* What differs in one line, ribbon or object: the text and, for --json, the
 * members. Where the diff would only count the item, nothing is built. */
typedef struct
{
  GString *text;
  JsonObject *members; /* NULL without details */
  gboolean quiet;      /* only counted */
  gboolean any;
} Changes;

static void
changes_init (Changes *c, TressDiff *out, const char *kind)
{
  c->quiet = !tress_diff_wants (out, kind);
  c->text = g_string_new (NULL);
  c->members = !c->quiet && tress_diff_wants_details (out) ? json_object_new () : NULL;
  c->any = FALSE;
}

static void
changes_flush (Changes *c, TressDiff *out, const char *path, const char *kind)
{
  if (c->any)
    {
      JsonObject *d = NULL;

      if (c->members != NULL)
        {
          d = json_object_new ();
          json_object_set_object_member (d, "members", g_steal_pointer (&c->members));
        }
      tress_diff_add (out, path, kind, d, "%s", c->text->str);
    }
  g_clear_pointer (&c->members, json_object_unref);
  g_string_free (c->text, TRUE);
  c->text = NULL;
}

static void
append_float (GString *s, float v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (isfinite (v))
    g_string_append (s, g_ascii_formatd (buf, sizeof buf, "%.7g", v));
  else
    {
      guint32 bits;
      memcpy (&bits, &v, 4);
      g_string_append_printf (s, "0x%08x", bits);
    }
}

static JsonNode *
float_node (float v)
{
  JsonNode *n = json_node_new (JSON_NODE_VALUE);

  if (isfinite (v))
    json_node_set_double (n, v);
  else
    {
      guint32 bits;
      char buf[16];
      memcpy (&bits, &v, 4);
      g_snprintf (buf, sizeof buf, "0x%08x", bits);
      json_node_set_string (n, buf);
    }
  return n;
}

/* Values of one kind: floats, unsigned integers (gint64, -1 for null). */
typedef enum
{
  V_FLOAT,
  V_INT,
} ValueKind;

static JsonNode *
values_node (ValueKind kind, const void *v, guint n)
{
  JsonArray *a = json_array_new ();
  JsonNode *node;

  for (guint i = 0; i < n; i++)
    if (kind == V_FLOAT)
      json_array_add_element (a, float_node (((const float *)v)[i]));
    else if (((const gint64 *)v)[i] < 0)
      json_array_add_null_element (a);
    else
      json_array_add_int_element (a, ((const gint64 *)v)[i]);
  node = json_node_new (JSON_NODE_ARRAY);
  json_node_take_array (node, a);
  return node;
}

/* The values from @from on (a long array: the @from before it are the same
 * in both, and "…" stands for them), at most SHOWN_MAX of them. */
static void
append_values (GString *s, ValueKind kind, const void *v, guint n, guint from, gboolean as_array)
{
  if (as_array)
    g_string_append_c (s, '[');
  if (from > 0)
    g_string_append_printf (s, "… %u the same%s", from, n > from ? ", " : "");
  for (guint i = from; i < n && i < from + SHOWN_MAX; i++)
    {
      if (i > from)
        g_string_append (s, ", ");
      if (kind == V_FLOAT)
        append_float (s, ((const float *)v)[i]);
      else if (((const gint64 *)v)[i] < 0)
        g_string_append (s, "null");
      else
        g_string_append_printf (s, "%" G_GINT64_FORMAT, ((const gint64 *)v)[i]);
    }
  if (n > from + SHOWN_MAX)
    g_string_append_printf (s, ", … (%u in all)", n);
  if (as_array)
    g_string_append_c (s, ']');
}

/* Member @name: @na values in @a, @nb in @b (bit for bit); scalars when both are 1 and !as_array.
 */
static void
changes_values (Changes *c, const char *name, ValueKind kind, const void *a, guint na,
                const void *b, guint nb, gboolean as_array)
{
  gsize size = kind == V_FLOAT ? sizeof (float) : sizeof (gint64);
  guint from = 0;
  JsonObject *ab;

  if (na == nb && (na == 0 || memcmp (a, b, size * na) == 0))
    return;
  c->any = TRUE;
  if (c->quiet)
    return;
  /* a long array is shown from its first difference on */
  if (MAX (na, nb) > SHOWN_MAX)
    while (from < MIN (na, nb)
           && memcmp ((const char *)a + size * from, (const char *)b + size * from, size) == 0)
      from++;
  if (c->text->len > 0)
    g_string_append (c->text, ", ");
  g_string_append_printf (c->text, "%s ", name);
  append_values (c->text, kind, a, na, from, as_array);
  g_string_append (c->text, " → ");
  append_values (c->text, kind, b, nb, from, as_array);
  if (c->members == NULL)
    return;
  ab = json_object_new ();
  if (as_array)
    {
      json_object_set_member (ab, "a", values_node (kind, a, na));
      json_object_set_member (ab, "b", values_node (kind, b, nb));
    }
  else
    {
      JsonNode *x = values_node (kind, a, na), *y = values_node (kind, b, nb);
      json_object_set_member (ab, "a",
                              json_node_copy (json_array_get_element (json_node_get_array (x), 0)));
      json_object_set_member (ab, "b",
                              json_node_copy (json_array_get_element (json_node_get_array (y), 0)));
      json_node_unref (x);
      json_node_unref (y);
    }
  json_object_set_object_member (c->members, name, ab);
}

static void
changes_int (Changes *c, const char *name, gint64 a, gint64 b)
{
  changes_values (c, name, V_INT, &a, 1, &b, 1, FALSE);
}

static void
changes_u8s (Changes *c, const char *name, const guint8 *a, const guint8 *b, guint n)
{
  gint64 x[8], y[8];

  g_assert (n <= 8);
  for (guint i = 0; i < n; i++)
    {
      x[i] = a[i];
      y[i] = b[i];
    }
  changes_values (c, name, V_INT, x, n, y, n, TRUE);
}

static void
changes_u32s (Changes *c, const char *name, const guint32 *a, guint na, const guint32 *b, guint nb)
{
  g_autofree gint64 *x = g_new (gint64, MAX (na, 1));
  g_autofree gint64 *y = g_new (gint64, MAX (nb, 1));

  for (guint i = 0; i < na; i++)
    x[i] = a[i];
  for (guint i = 0; i < nb; i++)
    y[i] = b[i];
  changes_values (c, name, V_INT, x, na, y, nb, TRUE);
}

static void
changes_floats (Changes *c, const char *name, const float *a, const float *b, guint n)
{
  changes_values (c, name, V_FLOAT, a, n, b, n, TRUE);
}

/* Bytes Tress keeps without decoding them. */
static void
diff_bytes (TressDiff *out, const char *path, const char *what, const guint8 *a, gsize na,
            const guint8 *b, gsize nb)
{
  gsize n_diff = 0, first = 0, last = 0;
  g_autoptr (GString) text = g_string_new (NULL);
  JsonObject *d;

  for (gsize i = 0; i < MIN (na, nb); i++)
    if (a[i] != b[i])
      {
        if (n_diff++ == 0)
          first = i;
        last = i;
      }
  if (n_diff == 0 && na == nb)
    return;
  d = json_object_new ();
  json_object_set_int_member (d, "size_a", (gint64)na);
  json_object_set_int_member (d, "size_b", (gint64)nb);
  json_object_set_int_member (d, "bytes_differing", (gint64)n_diff);
  if (n_diff > 0)
    {
      json_object_set_int_member (d, "first", (gint64)first);
      json_object_set_int_member (d, "last", (gint64)last);
      g_string_append_printf (text,
                              "%" G_GSIZE_FORMAT " byte%s differ%s from byte %" G_GSIZE_FORMAT
                              " to %" G_GSIZE_FORMAT,
                              n_diff, n_diff == 1 ? "" : "s", n_diff == 1 ? "s" : "", first, last);
    }
  if (na != nb)
    g_string_append_printf (text, "%s%" G_GSIZE_FORMAT " → %" G_GSIZE_FORMAT " bytes",
                            n_diff > 0 ? "; " : "", na, nb);
  tress_diff_add (out, path, "bytes", d, "bytes outside the model (%s): %s", what, text->str);
}

static void
body_parts (const TressChaMaterial *m, const TressChaLine *l, gint64 out[3])
{
  for (guint k = 0; k < 3; k++)
    out[k] = tress_cha_material_ref_body_part (m, l, k);
}

static void
diff_line (const TressChaMaterial *ma, const TressChaLine *a, const TressChaMaterial *mb,
           const TressChaLine *b, const char *path, TressDiff *out)
{
  Changes c;
  gint64 pa[3], pb[3], wa[3], wb[3];

  if (memcmp (a, b, sizeof *a) == 0 && ma->n_applied == mb->n_applied
      && memcmp (ma->applied, mb->applied, 4 * (gsize)ma->n_applied) == 0)
    return;
  changes_init (&c, out, "line");
  changes_floats (&c, "direction", a->direction, b->direction, 3);
  changes_int (&c, "ambient", a->ambient, b->ambient);
  changes_u8s (&c, "colour", a->colour, b->colour, 2);
  changes_int (&c, "ambient_copy", a->ambient_copy, b->ambient_copy);
  body_parts (ma, a, pa);
  body_parts (mb, b, pb);
  if (memcmp (pa, pb, sizeof pa) != 0)
    changes_values (&c, "body_parts", V_INT, pa, 3, pb, 3, TRUE);
  else
    {
      gint64 ra[3] = { a->refs[0], a->refs[1], a->refs[2] };
      gint64 rb[3] = { b->refs[0], b->refs[1], b->refs[2] };
      changes_values (&c, "refs", V_INT, ra, 3, rb, 3, TRUE);
    }
  changes_u8s (&c, "unknown", a->unknown, b->unknown, 2);
  for (guint k = 0; k < 3; k++)
    {
      wa[k] = tress_cha_line_get_weight (a, k);
      wb[k] = tress_cha_line_get_weight (b, k);
    }
  changes_values (&c, "weights", V_INT, wa, 3, wb, 3, TRUE);
  changes_int (&c, "pad", a->pad, b->pad);
  changes_u8s (&c, "mask", a->mask, b->mask, 8);
  changes_flush (&c, out, path, "line");
}

static void
diff_ribbon (const TressChaRadeon *ra, const TressChaMaterial *a, const TressChaRadeon *rb,
             const TressChaMaterial *b, guint r, const char *path, TressDiff *out)
{
  Changes c;
  guint n_morphs = MIN (ra->n_morphs, rb->n_morphs);
  guint n_lengths = MIN (ra->n_moralities, rb->n_moralities) + 1;

  changes_init (&c, out, "ribbon");
  changes_int (&c, "sections", a->n_sections[r], b->n_sections[r]);
  changes_int (&c, "line_count", a->n_ribbon_lines[r], b->n_ribbon_lines[r]);
  changes_int (&c, "first_line", a->first_line[r], b->first_line[r]);
  changes_int (&c, "quality", a->quality[r], b->quality[r]);
  changes_int (&c, "attach", a->attach[r], b->attach[r]);
  changes_floats (&c, "base_points", a->base_points + 6 * (gsize)r, b->base_points + 6 * (gsize)r,
                  6);
  for (guint k = 0; k < n_morphs && a->morph_points != NULL && b->morph_points != NULL; k++)
    {
      char name[32];
      g_snprintf (name, sizeof name, "morph_points[%u]", k);
      changes_floats (&c, name, a->morph_points[k] + 6 * (gsize)r,
                      b->morph_points[k] + 6 * (gsize)r, 6);
    }
  if (a->lengths != NULL && b->lengths != NULL)
    {
      g_autofree float *la = g_new (float, n_lengths);
      g_autofree float *lb = g_new (float, n_lengths);
      for (guint k = 0; k < n_lengths; k++)
        {
          la[k] = a->lengths[k][r];
          lb[k] = b->lengths[k][r];
        }
      changes_floats (&c, "lengths", la, lb, n_lengths);
    }
  changes_floats (&c, "zsort", a->zsort + 3 * (gsize)r, b->zsort + 3 * (gsize)r, 3);
  changes_flush (&c, out, path, "ribbon");
}

static void
diff_material (const TressChaRadeon *ra, const TressChaMaterial *a, const TressChaRadeon *rb,
               const TressChaMaterial *b, guint m, TressDiff *out)
{
  g_autofree char *path = g_strdup_printf ("/materials/%u", m);
  guint n_uv = MIN (a->n_uv_floats, b->n_uv_floats);
  Changes c;

  changes_init (&c, out, "member");
  changes_int (&c, "always_one", a->always_one, b->always_one);
  changes_u32s (&c, "applied", a->applied, a->n_applied, b->applied, b->n_applied);
  changes_int (&c, "line_size", a->line_size, b->line_size);
  changes_int (&c, "line_count", a->n_lines, b->n_lines);
  changes_int (&c, "ribbon_count", a->n_ribbons, b->n_ribbons);
  changes_int (&c, "line_array_size", a->line_array_size, b->line_array_size);
  changes_int (&c, "morph_count_plus_one", a->morphs_plus_one, b->morphs_plus_one);
  changes_int (&c, "ribbon_count_again", a->n_ribbons_again, b->n_ribbons_again);
  changes_int (&c, "morality_count_plus_one", a->moralities_plus_one, b->moralities_plus_one);
  changes_int (&c, "ribbon_count_third", a->n_ribbons_third, b->n_ribbons_third);
  changes_int (&c, "line_count_again", a->n_lines_again, b->n_lines_again);
  changes_int (&c, "uv_rows", a->uv_rows, b->uv_rows);
  changes_int (&c, "uv_groups_per_row", a->uv_groups, b->uv_groups);
  changes_int (&c, "uv_pieces_per_group", a->uv_pieces, b->uv_pieces);
  if (a->n_uv_floats != b->n_uv_floats || (n_uv > 0 && memcmp (a->uv, b->uv, 4 * (gsize)n_uv) != 0))
    {
      /* The UV table is long: how many values differ, the first one named. */
      guint n_diff = 0, first = 0;
      for (guint i = 0; i < n_uv; i++)
        if (memcmp (&a->uv[i], &b->uv[i], 4) != 0 && n_diff++ == 0)
          first = i;
      if (n_diff > 0)
        {
          char name[48];
          g_snprintf (name, sizeof name, "uv[%u] (%u value%s differ%s)", first, n_diff,
                      n_diff == 1 ? "" : "s", n_diff == 1 ? "s" : "");
          changes_floats (&c, name, &a->uv[first], &b->uv[first], 1);
        }
      changes_int (&c, "uv_floats", a->n_uv_floats, b->n_uv_floats);
    }
  changes_flush (&c, out, path, "member");
  {
    g_autofree char *p = g_strconcat (path, "/description_base64", NULL);
    diff_bytes (out, p, "description", a->description, TRESS_CHA_DESCRIPTION_SIZE, b->description,
                TRESS_CHA_DESCRIPTION_SIZE);
  }

  for (guint r = 0; r < MIN (a->n_ribbons, b->n_ribbons); r++)
    {
      g_autofree char *p = g_strdup_printf ("%s/ribbons/%u", path, r);
      diff_ribbon (ra, a, rb, b, r, p, out);
    }
  if (a->lines != NULL && b->lines != NULL)
    for (guint l = 0; l < MIN (a->n_lines, b->n_lines); l++)
      {
        g_autofree char *p = NULL;
        if (memcmp (&a->lines[l], &b->lines[l], sizeof *a->lines) == 0
            && a->n_applied == b->n_applied
            && memcmp (a->applied, b->applied, 4 * (gsize)a->n_applied) == 0)
          continue;
        p = g_strdup_printf ("%s/lines/%u", path, l);
        diff_line (a, &a->lines[l], b, &b->lines[l], p, out);
      }
  else if (a->raw_lines != NULL && b->raw_lines != NULL)
    {
      g_autofree char *p = g_strconcat (path, "/raw_lines_base64", NULL);
      diff_bytes (out, p, "lines of another size", a->raw_lines, (gsize)a->line_size * a->n_lines,
                  b->raw_lines, (gsize)b->line_size * b->n_lines);
    }
}

static void
names (Changes *c, const char *member, guint8 (*a)[TRESS_CHA_NAME_SIZE], guint na,
       guint8 (*b)[TRESS_CHA_NAME_SIZE], guint nb)
{
  JsonArray *x, *y;
  JsonObject *ab;
  gboolean same = na == nb;

  for (guint i = 0; same && i < na; i++)
    same = memcmp (a[i], b[i], TRESS_CHA_NAME_SIZE) == 0;
  if (same)
    return;
  c->any = TRUE;
  if (c->quiet)
    return;
  x = json_array_new ();
  y = json_array_new ();
  if (c->text->len > 0)
    g_string_append (c->text, ", ");
  g_string_append_printf (c->text, "%s [", member);
  for (guint i = 0; i < na; i++)
    {
      g_autofree char *s = g_utf8_make_valid ((const char *)a[i],
                                              strnlen ((const char *)a[i], TRESS_CHA_NAME_SIZE));
      g_string_append_printf (c->text, "%s\"%s\"", i ? ", " : "", s);
      json_array_add_string_element (x, s);
    }
  g_string_append (c->text, "] → [");
  for (guint i = 0; i < nb; i++)
    {
      g_autofree char *s = g_utf8_make_valid ((const char *)b[i],
                                              strnlen ((const char *)b[i], TRESS_CHA_NAME_SIZE));
      g_string_append_printf (c->text, "%s\"%s\"", i ? ", " : "", s);
      json_array_add_string_element (y, s);
    }
  g_string_append (c->text, "]");
  if (c->members == NULL)
    {
      json_array_unref (x);
      json_array_unref (y);
      return;
    }
  ab = json_object_new ();
  json_object_set_array_member (ab, "a", x);
  json_object_set_array_member (ab, "b", y);
  json_object_set_object_member (c->members, member, ab);
}

void
cha_diff (gpointer model_a, gpointer model_b, TressDiff *out)
{
  const TressChaFile *a = model_a, *b = model_b;
  const TressChaRadeon *ra = a->radeon, *rb = b->radeon;
  Changes c;

  changes_init (&c, out, "member");
  if (memcmp (a->magic, b->magic, TRESS_CHA_MAGIC_SIZE) != 0)
    {
      g_autofree char *x = g_strndup ((const char *)a->magic, TRESS_CHA_MAGIC_SIZE);
      g_autofree char *y = g_strndup ((const char *)b->magic, TRESS_CHA_MAGIC_SIZE);
      g_autofree char *xs = g_utf8_make_valid (x, -1), *ys = g_utf8_make_valid (y, -1);

      c.any = TRUE;
      g_string_append_printf (c.text, "magic \"%s\" → \"%s\"", xs, ys);
      if (c.members != NULL)
        {
          JsonObject *ab = json_object_new ();
          json_object_set_string_member (ab, "a", xs);
          json_object_set_string_member (ab, "b", ys);
          json_object_set_object_member (c.members, "magic", ab);
        }
    }
  changes_int (&c, "header_four", a->header_four, b->header_four);
  changes_int (&c, "file_version", a->version, b->version);
  changes_int (&c, "section_size_convention", a->size_convention, b->size_convention);
  changes_int (&c, "section_count", a->n_sections, b->n_sections);
  if (ra != NULL && rb != NULL)
    {
      names (&c, "morphs", ra->morph_names, ra->n_morphs, rb->morph_names, rb->n_morphs);
      names (&c, "moralities", ra->morality_names, ra->n_moralities, rb->morality_names,
             rb->n_moralities);
      changes_int (&c, "always_three", ra->always_three, rb->always_three);
      changes_int (&c, "body_part_max", ra->body_part_max, rb->body_part_max);
      changes_int (&c, "material_count", ra->n_materials, rb->n_materials);
    }
  changes_flush (&c, out, "", "member");

  for (guint i = 0; i < MIN (a->n_sections, b->n_sections); i++)
    {
      const TressChaSection *sa = &a->sections[i], *sb = &b->sections[i];
      g_autofree char *path = g_strdup_printf ("/sections/%u", i);
      g_autofree char *name = tress_cha_section_get_name (sa);

      if (memcmp (sa->name, sb->name, TRESS_CHA_NAME_SIZE) != 0)
        {
          g_autofree char *nb = tress_cha_section_get_name (sb);
          g_autofree char *x = g_utf8_make_valid (name, -1), *y = g_utf8_make_valid (nb, -1);
          tress_diff_add (out, path, "member", NULL, "name \"%s\" → \"%s\"", x, y);
        }
      if (sa->opaque != NULL && sb->opaque != NULL)
        {
          g_autofree char *what = g_strdup_printf ("section \"%s\"", name);
          g_autofree char *valid = g_utf8_make_valid (what, -1);
          gsize na, nb;
          const guint8 *x = g_bytes_get_data (sa->opaque, &na);
          const guint8 *y = g_bytes_get_data (sb->opaque, &nb);
          g_autofree char *p = g_strconcat (path, "/base64", NULL);

          diff_bytes (out, p, valid, x, na, y, nb);
        }
      else if ((sa->opaque != NULL) != (sb->opaque != NULL))
        tress_diff_add (out, path, "member", NULL, "%s",
                        sa->opaque != NULL ? "kept as bytes in A, decoded in B"
                                           : "decoded in A, kept as bytes in B");
    }
  if (ra == NULL || rb == NULL)
    {
      if ((ra == NULL) != (rb == NULL))
        tress_diff_add (out, "/materials", "member", NULL, "%s",
                        ra == NULL ? "only B has a radeon section" : "only A has a radeon section");
      return;
    }
  for (guint m = 0; m < MIN (ra->n_materials, rb->n_materials); m++)
    diff_material (ra, &ra->materials[m], rb, &rb->materials[m], m, out);
  diff_bytes (out, "/tail_base64", "after the last material", ra->tail, ra->tail_size, rb->tail,
              rb->tail_size);
}
