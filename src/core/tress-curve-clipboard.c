/* tress-curve-clipboard.c: copied keys, and where a paste puts them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-curve-clipboard.h"

#include <glib/gi18n.h>
#include <string.h>

#include "core/tress-error.h"

/* A target bone's missing channels are named up to this many. */
#define MAX_NAMED 4

typedef struct
{
  char *path;
  char *bone;
  char *channel;
  GArray *keys; /* TressKey, frames relative to first */
} ClipCurve;

struct _TressCurveClipboard
{
  GObject parent_instance;
  GPtrArray *curves; /* ClipCurve */
  double first;
};

G_DEFINE_FINAL_TYPE (TressCurveClipboard, tress_curve_clipboard, G_TYPE_OBJECT)

enum
{
  SIGNAL_CHANGED,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

static void
clip_curve_free (ClipCurve *c)
{
  g_free (c->path);
  g_free (c->bone);
  g_free (c->channel);
  g_array_unref (c->keys);
  g_free (c);
}

char *
tress_curve_path_dup_bone (const char *path)
{
  const char *slash = path != NULL ? strrchr (path, '/') : NULL;

  return slash != NULL ? g_strndup (path, (gsize)(slash - path)) : g_strdup ("");
}

char *
tress_curve_path_dup_channel (const char *path)
{
  const char *slash = path != NULL ? strrchr (path, '/') : NULL;

  return g_strdup (slash != NULL ? slash + 1 : path != NULL ? path : "");
}

/* The bone's own name: its last level ("Hip" of "Walk/Hip"). */
static const char *
bone_name (const char *bone)
{
  const char *slash = strrchr (bone, '/');

  return slash != NULL ? slash + 1 : bone;
}

TressCurveClipboard *
tress_curve_clipboard_new (void)
{
  return g_object_new (TRESS_TYPE_CURVE_CLIPBOARD, NULL);
}

TressCurveClipboard *
tress_curve_clipboard_get_default (void)
{
  static TressCurveClipboard *clipboard;

  if (clipboard == NULL)
    clipboard = tress_curve_clipboard_new ();
  return clipboard;
}

void
tress_curve_clipboard_clear (TressCurveClipboard *self)
{
  g_return_if_fail (TRESS_IS_CURVE_CLIPBOARD (self));
  if (self->curves->len == 0)
    return;
  g_ptr_array_set_size (self->curves, 0);
  self->first = 0;
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

void
tress_curve_clipboard_set (TressCurveClipboard *self, const char *const *paths, const guint *n,
                           guint n_curves, const TressKey *keys)
{
  double first = G_MAXDOUBLE;
  gsize at = 0;

  g_return_if_fail (TRESS_IS_CURVE_CLIPBOARD (self));
  g_ptr_array_set_size (self->curves, 0);
  for (guint i = 0; i < n_curves; at += n[i], i++)
    for (guint k = 0; k < n[i]; k++)
      first = MIN (first, keys[at + k].frame);
  at = 0;
  for (guint i = 0; i < n_curves; at += n[i], i++)
    {
      ClipCurve *c;

      if (n[i] == 0)
        continue;
      c = g_new0 (ClipCurve, 1);
      c->path = g_strdup (paths[i] != NULL ? paths[i] : "");
      c->bone = tress_curve_path_dup_bone (c->path);
      c->channel = tress_curve_path_dup_channel (c->path);
      c->keys = g_array_sized_new (FALSE, FALSE, sizeof (TressKey), n[i]);
      g_array_append_vals (c->keys, keys + at, n[i]);
      for (guint k = 0; k < n[i]; k++)
        g_array_index (c->keys, TressKey, k).frame -= first;
      g_ptr_array_add (self->curves, c);
    }
  self->first = self->curves->len > 0 ? first : 0;
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

gboolean
tress_curve_clipboard_is_empty (TressCurveClipboard *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_CLIPBOARD (self), TRUE);
  return self->curves->len == 0;
}

guint
tress_curve_clipboard_get_n_curves (TressCurveClipboard *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_CLIPBOARD (self), 0);
  return self->curves->len;
}

guint
tress_curve_clipboard_get_n_keys (TressCurveClipboard *self)
{
  guint n = 0;

  g_return_val_if_fail (TRESS_IS_CURVE_CLIPBOARD (self), 0);
  for (guint i = 0; i < self->curves->len; i++)
    n += ((ClipCurve *)self->curves->pdata[i])->keys->len;
  return n;
}

double
tress_curve_clipboard_get_first_frame (TressCurveClipboard *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_CLIPBOARD (self), 0);
  return self->first;
}

const char *
tress_curve_clipboard_get_path (TressCurveClipboard *self, guint i)
{
  g_return_val_if_fail (TRESS_IS_CURVE_CLIPBOARD (self), NULL);
  g_return_val_if_fail (i < self->curves->len, NULL);
  return ((ClipCurve *)self->curves->pdata[i])->path;
}

const TressKey *
tress_curve_clipboard_get_keys (TressCurveClipboard *self, guint i, guint *n)
{
  ClipCurve *c;

  g_return_val_if_fail (TRESS_IS_CURVE_CLIPBOARD (self), NULL);
  g_return_val_if_fail (i < self->curves->len, NULL);
  c = self->curves->pdata[i];
  *n = c->keys->len;
  return (const TressKey *)c->keys->data;
}

/* ------------------------------------------------------------- mapping -- */

/* The distinct bones of @bones (n strings), in order of first appearance. */
static GPtrArray *
distinct (char **bones, guint n)
{
  GPtrArray *out = g_ptr_array_new ();

  for (guint i = 0; i < n; i++)
    {
      gboolean seen = FALSE;

      for (guint j = 0; j < out->len && !seen; j++)
        seen = strcmp (out->pdata[j], bones[i]) == 0;
      if (!seen)
        g_ptr_array_add (out, bones[i]);
    }
  return out;
}

static char *
dup_onto (GPtrArray *bones)
{
  GString *s;

  if (bones->len > 3)
    return g_strdup_printf (ngettext ("%u bone", "%u bones", bones->len), bones->len);
  s = g_string_new (NULL);
  for (guint i = 0; i < bones->len; i++)
    {
      const char *name = bone_name (bones->pdata[i]);

      if (i > 0)
        g_string_append (s, ", ");
      /* TRANSLATORS: a curve with no bone above it, as a paste names it */
      g_string_append (s, name[0] != '\0' ? name : _ ("the curve"));
    }
  return g_string_free (s, FALSE);
}

guint
tress_curve_clipboard_map (TressCurveClipboard *self, const char *const *paths, guint n_targets,
                           int *map, char **onto, GError **error)
{
  g_autoptr (GPtrArray) src_bones = NULL, dst_bones = NULL, used_bones = NULL;
  g_auto (GStrv) t_bone = NULL, t_channel = NULL;
  g_autofree int *src_of = NULL; /* target bone → copied bone, or -1 */
  g_autoptr (GString) missing = NULL;
  guint n_missing = 0, n_keys = 0;
  char **c_bone_list;

  g_return_val_if_fail (TRESS_IS_CURVE_CLIPBOARD (self), 0);
  for (guint t = 0; t < n_targets; t++)
    map[t] = -1;
  if (self->curves->len == 0)
    {
      g_set_error_literal (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                           _ ("Nothing to paste: copy keys first"));
      return 0;
    }
  if (n_targets == 0)
    {
      g_set_error_literal (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                           _ ("Nothing to paste onto: show or select a curve"));
      return 0;
    }
  t_bone = g_new0 (char *, n_targets + 1);
  t_channel = g_new0 (char *, n_targets + 1);
  for (guint t = 0; t < n_targets; t++)
    {
      t_bone[t] = tress_curve_path_dup_bone (paths[t]);
      t_channel[t] = tress_curve_path_dup_channel (paths[t]);
    }
  dst_bones = distinct (t_bone, n_targets);

  /* One channel onto one channel, whatever their names. */
  if (self->curves->len == 1 && n_targets == 1)
    {
      map[0] = 0;
      if (onto != NULL)
        *onto = dup_onto (dst_bones);
      return ((ClipCurve *)self->curves->pdata[0])->keys->len;
    }

  c_bone_list = g_new0 (char *, self->curves->len);
  for (guint i = 0; i < self->curves->len; i++)
    c_bone_list[i] = ((ClipCurve *)self->curves->pdata[i])->bone;
  src_bones = distinct (c_bone_list, self->curves->len);
  g_free (c_bone_list);

  /* Which copied bone each target bone takes. */
  src_of = g_new (int, dst_bones->len);
  for (guint b = 0; b < dst_bones->len; b++)
    src_of[b] = src_bones->len == 1 ? 0 : -1;
  if (src_bones->len > 1)
    {
      guint n_named = 0;

      /* By name: the same bones (of this animation or another). */
      for (guint b = 0; b < dst_bones->len; b++)
        for (guint s = 0; s < src_bones->len && src_of[b] < 0; s++)
          if (strcmp (bone_name (dst_bones->pdata[b]), bone_name (src_bones->pdata[s])) == 0)
            src_of[b] = (int)s, n_named++;
      if (n_named < src_bones->len)
        {
          if (dst_bones->len != src_bones->len)
            {
              g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                           /* TRANSLATORS: %u copied bones, %u selected ones */
                           ngettext ("Paste refused: the keys come from %u bones, and %u bone is "
                                     "selected; select one bone or as many as were copied",
                                     "Paste refused: the keys come from %u bones, and %u bones "
                                     "are selected; select one bone or as many as were copied",
                                     dst_bones->len),
                           src_bones->len, dst_bones->len);
              return 0;
            }
          /* As many bones as copied: in order. */
          for (guint b = 0; b < dst_bones->len; b++)
            src_of[b] = (int)b;
        }
    }

  missing = g_string_new (NULL);
  used_bones = g_ptr_array_new ();
  for (guint b = 0; b < dst_bones->len; b++)
    {
      const char *dst = dst_bones->pdata[b];
      g_autoptr (GString) lacks = NULL;
      guint n_lacks = 0;

      if (src_of[b] < 0)
        continue;
      lacks = g_string_new (NULL);
      for (guint i = 0; i < self->curves->len; i++)
        {
          ClipCurve *c = self->curves->pdata[i];
          int found = -1;

          if (strcmp (c->bone, src_bones->pdata[src_of[b]]) != 0)
            continue;
          for (guint t = 0; t < n_targets && found < 0; t++)
            if (strcmp (t_bone[t], dst) == 0 && strcmp (t_channel[t], c->channel) == 0)
              found = (int)t;
          if (found < 0)
            {
              if (n_lacks < MAX_NAMED)
                g_string_append_printf (lacks, "%s%s", n_lacks > 0 ? ", " : "", c->channel);
              n_lacks++;
              continue;
            }
          map[found] = (int)i;
          n_keys += c->keys->len;
        }
      if (n_lacks > MAX_NAMED)
        g_string_append_printf (lacks,
                                ngettext (" and %u more", " and %u more", n_lacks - MAX_NAMED),
                                n_lacks - MAX_NAMED);
      if (n_lacks > 0)
        {
          const char *name = bone_name (dst);

          if (n_missing > 0)
            g_string_append (missing, "; ");
          /* TRANSLATORS: a bone, then the channels it has no curve for */
          g_string_append_printf (missing, _ ("%s has no %s"), name[0] != '\0' ? name : "—",
                                  lacks->str);
          n_missing++;
        }
      g_ptr_array_add (used_bones, (gpointer)dst);
    }
  if (n_missing > 0 || n_keys == 0)
    {
      for (guint t = 0; t < n_targets; t++)
        map[t] = -1;
      if (n_missing > 0)
        g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                     /* TRANSLATORS: %s says which bones lack which channels */
                     _ ("Paste refused: %s to paste onto; nothing was pasted"), missing->str);
      else
        g_set_error_literal (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                             _ ("Paste refused: no selected curve matches the copied ones"));
      return 0;
    }
  if (onto != NULL)
    *onto = dup_onto (used_bones);
  return n_keys;
}

/* -------------------------------------------------------------- object -- */

static void
tress_curve_clipboard_finalize (GObject *object)
{
  TressCurveClipboard *self = TRESS_CURVE_CLIPBOARD (object);

  g_ptr_array_unref (self->curves);
  G_OBJECT_CLASS (tress_curve_clipboard_parent_class)->finalize (object);
}

static void
tress_curve_clipboard_class_init (TressCurveClipboardClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tress_curve_clipboard_finalize;
  /* The content changed (a copy, or cleared). */
  signals[SIGNAL_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
tress_curve_clipboard_init (TressCurveClipboard *self)
{
  self->curves = g_ptr_array_new_with_free_func ((GDestroyNotify)clip_curve_free);
}
