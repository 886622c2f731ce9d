/* tress-cha-json-read.c: reading the names, lines and ribbons of a creature fur dump
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-cha-json-private.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* ---- build ---------------------------------------------------------------- */

const char *
_tress_cha_json_hint_for (const char *name)
{
  if (g_str_equal (name, "section"))
    return "it follows from \"mask\": edit the mask instead";
  if (g_str_equal (name, "offset") || g_str_equal (name, "size"))
    return "section offsets and sizes follow from the contents";
  if (g_str_equal (name, "index"))
    return "the place in the array is the index";
  return NULL;
}

/* A NUL-padded name of @n bytes: a string of at most @n bytes, or
 * {"base64": exactly @n bytes}. */
gboolean
_tress_cha_json_read_fixed_text (TressJsonReader *r, guint8 *out, gsize n)
{
  if (tress_json_reader_peek (r) == TRESS_JSON_OBJECT)
    {
      static const char *const names[] = { "base64", NULL };
      g_autofree char *path = tress_json_reader_path (r);
      const char *name;
      gboolean ok = FALSE, seen = FALSE;

      tress_json_reader_begin_object (r);
      while ((name = tress_json_reader_next_member (r)) != NULL)
        {
          if (g_str_equal (name, "base64"))
            {
              g_autoptr (GBytes) b = tress_json_reader_read_base64 (r, n);

              seen = TRUE;
              if (b != NULL && g_bytes_get_size (b) != n)
                tress_json_reader_refuse (
                    r, "expected %" G_GSIZE_FORMAT " bytes, found %" G_GSIZE_FORMAT, n,
                    g_bytes_get_size (b));
              else if (b != NULL)
                {
                  memcpy (out, g_bytes_get_data (b, NULL), n);
                  ok = TRUE;
                }
            }
          else
            {
              tress_json_reader_refuse (
                  r, "a name is a string or {\"base64\": its %" G_GSIZE_FORMAT " bytes}", n);
              tress_json_reader_skip (r);
            }
        }
      tress_json_reader_require (r, names, 1, seen ? 1 : 0, path);
      return ok;
    }
  else
    {
      g_autofree char *s = tress_json_reader_read_string (r);
      gsize len;

      if (s == NULL)
        return FALSE;
      len = strlen (s);
      if (len > n)
        {
          g_autofree char *q = tress_json_quote (s, (gssize)len);
          return tress_json_reader_refuse (
              r, "%s is longer than the %" G_GSIZE_FORMAT " bytes this name holds", q, n);
        }
      memset (out, 0, n);
      memcpy (out, s, len);
      return TRUE;
    }
}

GArray *
_tress_cha_json_read_names (Build *b)
{
  GArray *names = g_array_new (FALSE, TRUE, TRESS_CHA_NAME_SIZE);

  if (!tress_json_reader_begin_array (b->r))
    {
      g_array_unref (names);
      return NULL;
    }
  while (tress_json_reader_next_element (b->r))
    {
      guint8 name[TRESS_CHA_NAME_SIZE];

      if (_tress_cha_json_read_fixed_text (b->r, name, TRESS_CHA_NAME_SIZE))
        g_array_append_vals (names, name, 1);
      else
        g_array_set_size (names, names->len + 1);
    }
  return names;
}

enum
{
  L_DIRECTION,
  L_AMBIENT,
  L_COLOUR,
  L_AMBIENT_COPY,
  L_BODY_PARTS,
  L_REFS,
  L_UNKNOWN,
  L_WEIGHTS,
  L_PAD,
  L_MASK,
  L_SECTION,
};

static const char *const line_names[] = {
  "direction", "ambient", "colour", "ambient_copy", "body_parts", "refs",
  "unknown",   "weights", "pad",    "mask",         "section",    NULL,
};

void
_tress_cha_json_read_line (Build *b, TressChaLine *l, LineExtra *x)
{
  TressJsonReader *r = b->r;
  g_autofree char *path = tress_json_reader_path (r);
  guint64 seen = 0;
  int which;
  const guint64 required = (1u << L_DIRECTION) | (1u << L_AMBIENT) | (1u << L_COLOUR)
                           | (1u << L_AMBIENT_COPY) | (1u << L_UNKNOWN) | (1u << L_WEIGHTS)
                           | (1u << L_MASK);

  memset (l, 0, sizeof *l);
  memset (x, 0, sizeof *x);
  if (!tress_json_reader_begin_object (r))
    return;
  while ((which = tress_json_reader_next_known (r, line_names, &seen)) != -2)
    switch (which)
      {
      case L_DIRECTION:
        tress_json_reader_read_floats (r, l->direction, 3);
        break;
      case L_AMBIENT:
        tress_json_reader_read_u8 (r, &l->ambient);
        break;
      case L_AMBIENT_COPY:
        tress_json_reader_read_u8 (r, &l->ambient_copy);
        break;
      case L_BODY_PARTS:
        {
          guint k = 0;

          x->has_body_parts = TRUE;
          if (!tress_json_reader_begin_array (r))
            break;
          while (tress_json_reader_next_element (r))
            {
              if (k < 3 && tress_json_reader_peek (r) == TRESS_JSON_NULL)
                {
                  x->bp_null[k] = TRUE;
                  tress_json_reader_skip (r);
                }
              else if (k < 3)
                tress_json_reader_read_u32 (r, &x->body_parts[k]);
              else
                tress_json_reader_skip (r);
              k++;
            }
          if (k != 3)
            tress_json_reader_refuse (r, "expected 3 body parts, found %u", k);
          break;
        }
      case L_REFS:
        {
          guint k = 0;

          x->has_refs = TRUE;
          if (!tress_json_reader_begin_array (r))
            break;
          while (tress_json_reader_next_element (r))
            {
              gint64 v;

              if (k < 3 && tress_json_reader_read_int (r, 0, G_MAXUINT16, &v))
                l->refs[k] = (guint16)v;
              else if (k >= 3)
                tress_json_reader_skip (r);
              k++;
            }
          if (k != 3)
            tress_json_reader_refuse (r, "expected 3 references, found %u", k);
          break;
        }
      case L_UNKNOWN:
        tress_json_reader_read_u8s (r, l->unknown, 2);
        break;
      case L_WEIGHTS:
        {
          guint8 w[3] = { 0, 0, 0 };

          /* reference order: weights[0] of refs[0] is byte 26 */
          tress_json_reader_read_u8s (r, w, 3);
          l->weights[0] = w[2];
          l->weights[1] = w[1];
          l->weights[2] = w[0];
          break;
        }
      case L_PAD:
        tress_json_reader_read_u8 (r, &l->pad);
        break;
      case L_MASK:
        tress_json_reader_read_u8s (r, l->mask, 8);
        break;
      case L_SECTION:
        x->has_section = TRUE;
        x->section = -1;
        if (tress_json_reader_peek (r) == TRESS_JSON_NULL)
          tress_json_reader_skip (r);
        else
          tress_json_reader_read_int (r, 0, 7, &x->section);
        break;
      case L_COLOUR:
        tress_json_reader_read_u8s (r, l->colour, 2);
        break;
      default:
        tress_json_reader_keep_unknown (r);
        break;
      }
  tress_json_reader_require (r, line_names, required, seen, path);
  if (!x->has_body_parts && !x->has_refs && tress_json_reader_ok (r))
    {
      g_autofree char *p = g_strconcat (path, "/body_parts", NULL);
      tress_json_reader_refuse_at (r, p, "the member \"body_parts\" is missing");
    }
}

enum
{
  R_SECTIONS,
  R_LINE_COUNT,
  R_FIRST_LINE,
  R_QUALITY,
  R_ATTACH,
  R_BASE,
  R_MORPH,
  R_LENGTHS,
  R_ZSORT,
};

static const char *const ribbon_names[] = {
  "sections",    "line_count",   "first_line", "quality", "attach",
  "base_points", "morph_points", "lengths",    "zsort",   NULL,
};

void
_tress_cha_json_read_ribbon (Build *b, Ribbons *rb)
{
  TressJsonReader *r = b->r;
  g_autofree char *path = tress_json_reader_path (r);
  guint64 seen = 0;
  int which;
  guint32 sections = 0, lines = 0, first = 0, quality = 0, attach = 0;
  gboolean explicit_first = FALSE;
  float base[6] = { 0 }, zsort[3] = { 0 };
  const guint64 required = ((1u << 9) - 1) & ~(1u << R_FIRST_LINE);
  guint n_morph = 0, n_len = 0;

  if (tress_json_reader_begin_object (r))
    while ((which = tress_json_reader_next_known (r, ribbon_names, &seen)) != -2)
      switch (which)
        {
        case R_SECTIONS:
          tress_json_reader_read_u32 (r, &sections);
          break;
        case R_LINE_COUNT:
          tress_json_reader_read_u32 (r, &lines);
          break;
        case R_FIRST_LINE:
          explicit_first = tress_json_reader_read_u32 (r, &first);
          break;
        case R_QUALITY:
          tress_json_reader_read_u32 (r, &quality);
          break;
        case R_ATTACH:
          tress_json_reader_read_u32 (r, &attach);
          break;
        case R_BASE:
          tress_json_reader_read_floats (r, base, 6);
          break;
        case R_ZSORT:
          tress_json_reader_read_floats (r, zsort, 3);
          break;
        case R_MORPH:
          if (!tress_json_reader_begin_array (r))
            break;
          while (tress_json_reader_next_element (r))
            {
              float d[6] = { 0 };

              tress_json_reader_read_floats (r, d, 6);
              if (n_morph < b->n_morphs)
                g_array_append_vals (rb->morph[n_morph], d, 6);
              n_morph++;
            }
          if (n_morph != b->n_morphs)
            tress_json_reader_refuse (r,
                                      "expected one displacement for each of the %u morphs, "
                                      "found %u",
                                      b->n_morphs, n_morph);
          break;
        case R_LENGTHS:
          if (!tress_json_reader_begin_array (r))
            break;
          while (tress_json_reader_next_element (r))
            {
              float v = 0;

              tress_json_reader_read_float (r, &v);
              if (n_len <= b->n_moralities)
                g_array_append_val (rb->lengths[n_len], v);
              n_len++;
            }
          if (n_len != b->n_moralities + 1)
            tress_json_reader_refuse (r,
                                      "expected %u lengths (the base one, then one for each "
                                      "morality), found %u",
                                      b->n_moralities + 1, n_len);
          break;
        default:
          tress_json_reader_keep_unknown (r);
          break;
        }
  tress_json_reader_require (r, ribbon_names, required, seen, path);
  /* Keep every array at the ribbon count, whatever was missing. */
  for (guint k = n_morph; k < b->n_morphs; k++)
    g_array_set_size (rb->morph[k], rb->n_sections->len * 6 + 6);
  for (guint k = n_len; k <= b->n_moralities; k++)
    g_array_set_size (rb->lengths[k], rb->n_sections->len + 1);
  g_array_append_val (rb->n_sections, sections);
  g_array_append_val (rb->n_lines, lines);
  g_array_append_val (rb->first_line, first);
  g_array_append_val (rb->explicit_first, explicit_first);
  g_array_append_val (rb->quality, quality);
  g_array_append_val (rb->attach, attach);
  g_array_append_vals (rb->base, base, 6);
  g_array_append_vals (rb->zsort, zsort, 3);
}
