/* tress-problem.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-problem.h"

#include <glib/gi18n-lib.h>
#include <string.h>

TressProblem *
tress_problem_new_valist (TressSeverity severity, const char *location, gsize offset,
                          const char *fix, int fix_id, const char *message_format, va_list args)
{
  TressProblem *problem = g_new0 (TressProblem, 1);

  problem->severity = severity;
  problem->location = g_strdup (location);
  problem->offset = offset;
  problem->fix = g_strdup (fix);
  problem->fix_id = fix ? fix_id : -1;
  problem->kind = message_format;
  problem->message = g_strdup_vprintf (message_format, args);
  return problem;
}

TressProblem *
tress_problem_new (TressSeverity severity, const char *location, gsize offset, const char *fix,
                   int fix_id, const char *message_format, ...)
{
  TressProblem *problem;
  va_list args;

  va_start (args, message_format);
  problem
      = tress_problem_new_valist (severity, location, offset, fix, fix_id, message_format, args);
  va_end (args);
  return problem;
}

TressProblem *
tress_problem_copy (const TressProblem *problem)
{
  TressProblem *copy = g_memdup2 (problem, sizeof *problem);

  copy->location = g_strdup (problem->location);
  copy->message = g_strdup (problem->message);
  copy->fix = g_strdup (problem->fix);
  return copy;
}

void
tress_problem_free (TressProblem *problem)
{
  if (problem == NULL)
    return;
  g_free (problem->location);
  g_free (problem->message);
  g_free (problem->fix);
  g_free (problem);
}

GPtrArray *
tress_problem_list_new (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify)tress_problem_free);
}

const char *
tress_severity_to_string (TressSeverity severity)
{
  switch (severity)
    {
    case TRESS_SEVERITY_INFO:
      return "info";
    case TRESS_SEVERITY_WARNING:
      return "warning";
    case TRESS_SEVERITY_ERROR:
      return "error";
    default:
      return "unknown";
    }
}

guint
tress_problem_list_count (GPtrArray *problems, TressSeverity severity)
{
  guint n = 0;

  for (guint i = 0; problems != NULL && i < problems->len; i++)
    {
      const TressProblem *p = g_ptr_array_index (problems, i);
      if (p->severity >= severity)
        n += p->n_more > 0 ? p->n_more : 1;
    }
  return n;
}

/* "8,412" */
static char *
format_count (guint n)
{
  g_autofree char *digits = g_strdup_printf ("%u", n);
  GString *s = g_string_new (NULL);
  gsize len = strlen (digits);

  for (gsize i = 0; i < len; i++)
    {
      if (i > 0 && (len - i) % 3 == 0)
        g_string_append_c (s, ',');
      g_string_append_c (s, digits[i]);
    }
  return g_string_free (s, FALSE);
}

TressProblem *
tress_problem_new_summary (TressSeverity severity, const char *kind, guint n_more)
{
  TressProblem *problem = g_new0 (TressProblem, 1);
  g_autofree char *count = format_count (n_more);

  problem->severity = severity;
  problem->offset = G_MAXSIZE;
  problem->fix_id = -1;
  problem->kind = kind;
  problem->n_more = n_more;
  /* Translators: after a list of problems of one kind; %s is a count like "8,412" */
  problem->message = g_strdup_printf (_ ("and %s more of this kind"), count);
  return problem;
}

/* ---- summing up -------------------------------------------------------------- */

typedef struct
{
  const char *kind;
  TressSeverity severity;
  guint listed;
  guint more;
  gint anchor; /* the summary goes after this index of the new list (-1: first) */
  int fix_id;  /* the kind's fix (-1: none, or not the same for all) */
  gboolean seen_fix;
} KindState;

static guint
kind_hash (gconstpointer p)
{
  const KindState *k = p;

  return g_direct_hash (k->kind) ^ (guint)k->severity;
}

static gboolean
kind_equal (gconstpointer a, gconstpointer b)
{
  const KindState *x = a, *y = b;

  return x->kind == y->kind && x->severity == y->severity;
}

static GHashTable *
kind_table_new (void)
{
  return g_hash_table_new_full (kind_hash, kind_equal, g_free, NULL);
}

static KindState *
kind_lookup (GHashTable *kinds, const char *kind, TressSeverity severity)
{
  KindState key = { kind, severity, 0, 0, -1, -1, FALSE };
  KindState *state = g_hash_table_lookup (kinds, &key);

  if (state == NULL)
    {
      state = g_memdup2 (&key, sizeof key);
      g_hash_table_add (kinds, state);
    }
  return state;
}

/* Notes the fix of one more problem of the kind. */
static void
kind_note_fix (KindState *state, int fix_id)
{
  if (!state->seen_fix)
    state->fix_id = fix_id;
  else if (state->fix_id != fix_id)
    state->fix_id = -1;
  state->seen_fix = TRUE;
}

static TressProblem *
summary_of (const KindState *state)
{
  TressProblem *p = tress_problem_new_summary (state->severity, state->kind, state->more);

  /* Counted by what fixes there are (no fix text: it has no place to fix). */
  p->fix_id = state->fix_id;
  return p;
}

/* Appends @kept to @list, each kind's summary row after its anchor. */
static void
append_with_summaries (GPtrArray *list, GPtrArray *kept, GHashTable *kinds)
{
  g_autofree KindState **after = g_new0 (KindState *, kept->len + 1);
  GHashTableIter iter;
  KindState *state;

  /* after[i + 1]: the kind whose summary follows kept[i] (each kept problem
   * belongs to one kind, so one at most per place); after[0]: before all. */
  g_hash_table_iter_init (&iter, kinds);
  while (g_hash_table_iter_next (&iter, (gpointer *)&state, NULL))
    if (state->more > 0)
      after[state->anchor + 1] = state;
  for (guint i = 0; i <= kept->len; i++)
    {
      if (i > 0)
        g_ptr_array_add (list, g_ptr_array_index (kept, i - 1));
      if (after[i] != NULL)
        g_ptr_array_add (list, summary_of (after[i]));
    }
}

void
tress_problem_list_aggregate (GPtrArray *problems)
{
  g_autoptr (GHashTable) kinds = kind_table_new ();
  g_autoptr (GPtrArray) kept = g_ptr_array_new ();
  gsize n = 0;
  TressProblem **all;

  if (problems == NULL || problems->len == 0)
    return;
  all = (TressProblem **)g_ptr_array_steal (problems, &n);
  for (gsize i = 0; i < n; i++)
    {
      TressProblem *p = all[i];
      KindState *state;

      if (p->kind == NULL && p->n_more == 0)
        {
          g_ptr_array_add (kept, p);
          continue;
        }
      state = kind_lookup (kinds, p->kind, p->severity);
      kind_note_fix (state, p->fix_id);
      if (p->n_more > 0)
        {
          state->more += p->n_more;
          if (state->listed == 0)
            state->anchor = (gint)kept->len - 1;
          tress_problem_free (p);
        }
      else if (state->listed < TRESS_PROBLEM_MAX_PER_KIND)
        {
          state->listed++;
          state->anchor = (gint)kept->len;
          g_ptr_array_add (kept, p);
        }
      else
        {
          state->more++;
          tress_problem_free (p);
        }
    }
  g_free (all);
  append_with_summaries (problems, kept, kinds);
}

struct _TressProblemCollector
{
  GPtrArray *kept;
  GHashTable *kinds;
};

TressProblemCollector *
tress_problem_collector_new (void)
{
  TressProblemCollector *c = g_new0 (TressProblemCollector, 1);

  c->kept = g_ptr_array_new ();
  c->kinds = kind_table_new ();
  return c;
}

/* Counts one problem of the kind; TRUE when it is to be listed. */
static gboolean
collector_take (TressProblemCollector *c, TressSeverity severity, const char *kind, int fix_id)
{
  KindState *state;

  if (kind == NULL)
    return TRUE;
  state = kind_lookup (c->kinds, kind, severity);
  kind_note_fix (state, fix_id);
  if (state->listed >= TRESS_PROBLEM_MAX_PER_KIND)
    {
      state->more++;
      return FALSE;
    }
  state->listed++;
  state->anchor = (gint)c->kept->len;
  return TRUE;
}

gboolean
tress_problem_collector_wants (TressProblemCollector *c, TressSeverity severity, const char *kind)
{
  KindState key = { kind, severity, 0, 0, -1, -1, FALSE };
  const KindState *state = kind != NULL ? g_hash_table_lookup (c->kinds, &key) : NULL;

  return state == NULL || state->listed < TRESS_PROBLEM_MAX_PER_KIND;
}

void
tress_problem_collector_add (TressProblemCollector *c, TressProblem *problem)
{
  if (problem->n_more > 0)
    {
      KindState *state = kind_lookup (c->kinds, problem->kind, problem->severity);

      kind_note_fix (state, problem->fix_id);
      state->more += problem->n_more;
      if (state->listed == 0)
        state->anchor = (gint)c->kept->len - 1;
      tress_problem_free (problem);
    }
  else if (collector_take (c, problem->severity, problem->kind, problem->fix_id))
    g_ptr_array_add (c->kept, problem);
  else
    tress_problem_free (problem);
}

void
tress_problem_collect (TressProblemCollector *c, TressSeverity severity, const char *location,
                       gsize offset, const char *fix, int fix_id, const char *message_format, ...)
{
  va_list args;

  if (!collector_take (c, severity, message_format, fix ? fix_id : -1))
    return;
  va_start (args, message_format);
  g_ptr_array_add (c->kept, tress_problem_new_valist (severity, location, offset, fix, fix_id,
                                                      message_format, args));
  va_end (args);
}

GPtrArray *
tress_problem_collector_finish (TressProblemCollector *c)
{
  GPtrArray *list = tress_problem_list_new ();

  append_with_summaries (list, c->kept, c->kinds);
  g_ptr_array_unref (c->kept);
  g_hash_table_unref (c->kinds);
  g_free (c);
  return list;
}

GPtrArray *
tress_problem_list_aggregated_copy (GPtrArray *problems)
{
  TressProblemCollector *c = tress_problem_collector_new ();

  for (guint i = 0; problems != NULL && i < problems->len; i++)
    {
      const TressProblem *p = g_ptr_array_index (problems, i);

      if (p->n_more > 0 || tress_problem_collector_wants (c, p->severity, p->kind))
        tress_problem_collector_add (c, tress_problem_copy (p));
      else
        collector_take (c, p->severity, p->kind, p->fix_id);
    }
  return tress_problem_collector_finish (c);
}

/* ---- what an edit adds -------------------------------------------------------- */

static char *
error_key (const TressProblem *p)
{
  return g_strconcat (p->location != NULL ? p->location : "", "\n", p->message, NULL);
}

typedef struct
{
  const char *kind;
  TressSeverity severity;
  guint before, after; /* errors of the kind, listed or summed up */
  gboolean summed;     /* either list sums the kind up */
  guint to_show;       /* (summed kinds) new ones still to show */
} ErrorKind;

static guint
error_kind_hash (gconstpointer p)
{
  const ErrorKind *k = p;

  return g_direct_hash (k->kind) ^ (guint)k->severity;
}

static gboolean
error_kind_equal (gconstpointer a, gconstpointer b)
{
  const ErrorKind *x = a, *y = b;

  return x->kind == y->kind && x->severity == y->severity;
}

static ErrorKind *
error_kind (GHashTable *kinds, const TressProblem *p)
{
  ErrorKind key = { p->kind, p->severity, 0, 0, FALSE, 0 };
  ErrorKind *k = g_hash_table_lookup (kinds, &key);

  if (k == NULL)
    {
      k = g_memdup2 (&key, sizeof key);
      g_hash_table_add (kinds, k);
    }
  return k;
}

static void
count_errors (GPtrArray *problems, GHashTable *kinds, gboolean after)
{
  for (guint i = 0; problems != NULL && i < problems->len; i++)
    {
      const TressProblem *p = g_ptr_array_index (problems, i);
      ErrorKind *k;

      if (p->severity < TRESS_SEVERITY_ERROR || p->kind == NULL)
        continue;
      k = error_kind (kinds, p);
      *(after ? &k->after : &k->before) += p->n_more > 0 ? p->n_more : 1;
      k->summed |= p->n_more > 0;
    }
}

guint
tress_problem_list_new_errors (GPtrArray *before, GPtrArray *after, GPtrArray *shown,
                               guint max_shown)
{
  g_autoptr (GHashTable) had = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) kinds
      = g_hash_table_new_full (error_kind_hash, error_kind_equal, g_free, NULL);
  GHashTableIter iter;
  ErrorKind *k;
  guint n_new = 0;

  for (guint i = 0; before != NULL && i < before->len; i++)
    {
      const TressProblem *p = g_ptr_array_index (before, i);

      if (p->severity >= TRESS_SEVERITY_ERROR && p->n_more == 0)
        g_hash_table_add (had, error_key (p));
    }
  count_errors (before, kinds, FALSE);
  count_errors (after, kinds, TRUE);
  /* A kind summed up on either side: an error listed now may be one summed
   * up before, so only a higher total is sure to be new. */
  g_hash_table_iter_init (&iter, kinds);
  while (g_hash_table_iter_next (&iter, (gpointer *)&k, NULL))
    if (k->summed && k->after > k->before)
      {
        n_new += k->after - k->before;
        k->to_show = k->after - k->before;
      }

  for (guint i = 0; after != NULL && i < after->len; i++)
    {
      TressProblem *p = g_ptr_array_index (after, i);
      g_autofree char *key = NULL;

      if (p->severity < TRESS_SEVERITY_ERROR)
        continue;
      k = p->kind != NULL ? error_kind (kinds, p) : NULL;
      if (k != NULL && k->summed)
        {
          /* Shown: the listed ones before does not have, then the summary. */
          if (k->to_show == 0
              || (p->n_more == 0 && g_hash_table_contains (had, key = error_key (p))))
            continue;
          k->to_show -= MIN (k->to_show, p->n_more > 0 ? k->to_show : 1);
        }
      else if (g_hash_table_contains (had, key = error_key (p)))
        continue;
      else
        n_new++;
      if (shown != NULL && shown->len < max_shown)
        g_ptr_array_add (shown, p);
    }
  return n_new;
}

char *
tress_problem_to_string (const TressProblem *problem)
{
  GString *s = g_string_new (tress_severity_to_string (problem->severity));

  if (problem->location != NULL && problem->location[0] != '\0')
    g_string_append_printf (s, " at %s", problem->location);
  if (problem->offset != G_MAXSIZE)
    g_string_append_printf (s, " (offset 0x%" G_GSIZE_MODIFIER "x)", problem->offset);
  g_string_append_printf (s, ": %s", problem->message);
  if (problem->fix != NULL)
    g_string_append_printf (s, " [fix: %s]", problem->fix);
  return g_string_free (s, FALSE);
}
