/* tress-cha-document.c: the creature-fur document, lazy ribbon tree, selection
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-cha-document.h"

#include "core/tress-count.h"
#include "tress-document-private.h"

#include <glib/gi18n-lib.h>

#include <stdlib.h>
#include <string.h>

/* ---- nodes ---------------------------------------------------------------- */

struct _TressChaNode
{
  GObject parent_instance;
  TressChaDocument *doc; /* not referenced; cleared when the document goes */
  TressChaNodeKind kind;
  int section, material, ribbon, rsection, line;
  guint revision;
};

G_DEFINE_FINAL_TYPE (TressChaNode, tress_cha_node, G_TYPE_OBJECT)

enum
{
  NODE_PROP_0,
  NODE_PROP_REVISION,
  NODE_N_PROPS
};

static GParamSpec *node_props[NODE_N_PROPS];

static void
tress_cha_node_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  TressChaNode *self = TRESS_CHA_NODE (object);

  switch (prop_id)
    {
    case NODE_PROP_REVISION:
      g_value_set_uint (value, self->revision);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tress_cha_node_class_init (TressChaNodeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = tress_cha_node_get_property;
  node_props[NODE_PROP_REVISION]
      = g_param_spec_uint ("revision", NULL, NULL, 0, G_MAXUINT, 0,
                           G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, NODE_N_PROPS, node_props);
}

static void
tress_cha_node_init (TressChaNode *self)
{
  self->section = self->material = self->ribbon = self->rsection = self->line = -1;
}

static void
node_bump (TressChaNode *node)
{
  node->revision++;
  g_object_notify_by_pspec (G_OBJECT (node), node_props[NODE_PROP_REVISION]);
}

TressChaNodeKind
tress_cha_node_get_kind (TressChaNode *node)
{
  return node->kind;
}

int
tress_cha_node_get_section (TressChaNode *node)
{
  return node->section;
}

int
tress_cha_node_get_material (TressChaNode *node)
{
  return node->material;
}

int
tress_cha_node_get_ribbon (TressChaNode *node)
{
  return node->ribbon;
}

int
tress_cha_node_get_ribbon_section (TressChaNode *node)
{
  return node->rsection;
}

int
tress_cha_node_get_line (TressChaNode *node)
{
  return node->line;
}

guint
tress_cha_node_get_revision (TressChaNode *node)
{
  return node->revision;
}

/* ---- lazy node lists ------------------------------------------------------ */

#define TRESS_TYPE_CHA_NODE_LIST (tress_cha_node_list_get_type ())
G_DECLARE_FINAL_TYPE (TressChaNodeList, tress_cha_node_list, TRESS, CHA_NODE_LIST, GObject)

struct _TressChaNodeList
{
  GObject parent_instance;
  TressChaDocument *doc; /* not referenced */
  TressChaNodeKind kind; /* kind of the items */
  int section, material, ribbon, rsection;
  guint n_items;
  TressChaNode **cache; /* n_items entries, NULL until asked for */
};

struct _TressChaDocument
{
  TressDocument parent_instance;
  GPtrArray *lists;          /* live TressChaNodeLists (not referenced) */
  TressChaNodeList *root;    /* sections */
  GArray *selection;         /* TressChaRibbonId, sorted */
  GHashTable *problem_count; /* tress_cha_file_count_ribbon_problems(); NULL = stale */
  TressChaPartNameFunc part_name;
  gpointer part_name_data;
};

G_DEFINE_FINAL_TYPE (TressChaDocument, tress_cha_document, TRESS_TYPE_DOCUMENT)

enum
{
  SIGNAL_FUR_CHANGED,
  SIGNAL_SELECTION_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const TressChaRadeon *
list_radeon (TressChaDocument *doc, int section)
{
  TressChaFile *file = doc != NULL ? tress_cha_document_get_cha (doc) : NULL;

  if (file == NULL || section < 0 || (guint)section >= file->n_sections)
    return NULL;
  return file->sections[section].radeon;
}

static const TressChaMaterial *
list_material (TressChaDocument *doc, int section, int material)
{
  const TressChaRadeon *rad = list_radeon (doc, section);

  if (rad == NULL || material < 0 || (guint)material >= rad->n_materials)
    return NULL;
  return &rad->materials[material];
}

/* A ribbon's line range, checked. */
static gboolean
ribbon_lines (const TressChaMaterial *m, int ribbon, guint *first, guint *n)
{
  if (m == NULL || ribbon < 0 || (guint)ribbon >= m->n_ribbons)
    return FALSE;
  return tress_cha_material_ribbon_lines (m, (guint)ribbon, first, n);
}

static guint
list_count (TressChaNodeList *self)
{
  TressChaFile *file = self->doc != NULL ? tress_cha_document_get_cha (self->doc) : NULL;
  const TressChaRadeon *rad;
  const TressChaMaterial *m;
  guint first, n;

  if (file == NULL)
    return 0;
  switch (self->kind)
    {
    case TRESS_CHA_NODE_SECTION:
      return file->n_sections;
    case TRESS_CHA_NODE_MATERIAL:
      rad = list_radeon (self->doc, self->section);
      return rad != NULL ? rad->n_materials : 0;
    case TRESS_CHA_NODE_RIBBON:
      m = list_material (self->doc, self->section, self->material);
      return m != NULL ? m->n_ribbons : 0;
    case TRESS_CHA_NODE_RIBBON_SECTION:
      m = list_material (self->doc, self->section, self->material);
      return ribbon_lines (m, self->ribbon, &first, &n) ? (n + 1) / 2 : 0;
    case TRESS_CHA_NODE_LINE:
      m = list_material (self->doc, self->section, self->material);
      if (!ribbon_lines (m, self->ribbon, &first, &n) || (guint)self->rsection * 2 >= n)
        return 0;
      return MIN (2, n - (guint)self->rsection * 2);
    default:
      return 0;
    }
}

static GType
list_get_item_type (GListModel *model)
{
  return TRESS_TYPE_CHA_NODE;
}

static guint
list_get_n_items (GListModel *model)
{
  return TRESS_CHA_NODE_LIST (model)->n_items;
}

static gpointer
list_get_item (GListModel *model, guint position)
{
  TressChaNodeList *self = TRESS_CHA_NODE_LIST (model);
  TressChaNode *node;

  if (position >= self->n_items)
    return NULL;
  if (self->cache == NULL)
    self->cache = g_new0 (TressChaNode *, self->n_items);
  if (self->cache[position] == NULL)
    {
      node = g_object_new (TRESS_TYPE_CHA_NODE, NULL);
      node->doc = self->doc;
      node->kind = self->kind;
      node->section = self->section;
      node->material = self->material;
      node->ribbon = self->ribbon;
      node->rsection = self->rsection;
      switch (self->kind)
        {
        case TRESS_CHA_NODE_SECTION:
          node->section = (int)position;
          break;
        case TRESS_CHA_NODE_MATERIAL:
          node->material = (int)position;
          break;
        case TRESS_CHA_NODE_RIBBON:
          node->ribbon = (int)position;
          break;
        case TRESS_CHA_NODE_RIBBON_SECTION:
          node->rsection = (int)position;
          break;
        case TRESS_CHA_NODE_LINE:
          {
            guint first = 0, n = 0;

            ribbon_lines (list_material (self->doc, self->section, self->material), self->ribbon,
                          &first, &n);
            node->line = (int)(first + 2 * (guint)self->rsection + position);
          }
          break;
        default:
          break;
        }
      self->cache[position] = node;
    }
  return g_object_ref (self->cache[position]);
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = list_get_item_type;
  iface->get_n_items = list_get_n_items;
  iface->get_item = list_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (TressChaNodeList, tress_cha_node_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static void
list_drop_cache (TressChaNodeList *self)
{
  guint i;

  if (self->cache == NULL)
    return;
  for (i = 0; i < self->n_items; i++)
    if (self->cache[i] != NULL)
      {
        self->cache[i]->doc = NULL;
        g_object_unref (self->cache[i]);
      }
  g_clear_pointer (&self->cache, g_free);
}

static void
tress_cha_node_list_finalize (GObject *object)
{
  TressChaNodeList *self = TRESS_CHA_NODE_LIST (object);

  if (self->doc != NULL)
    g_ptr_array_remove_fast (self->doc->lists, self);
  list_drop_cache (self);
  G_OBJECT_CLASS (tress_cha_node_list_parent_class)->finalize (object);
}

static void
tress_cha_node_list_class_init (TressChaNodeListClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tress_cha_node_list_finalize;
}

static void
tress_cha_node_list_init (TressChaNodeList *self)
{
}

static TressChaNodeList *
list_new (TressChaDocument *doc, TressChaNodeKind kind, int section, int material, int ribbon,
          int rsection)
{
  TressChaNodeList *self = g_object_new (TRESS_TYPE_CHA_NODE_LIST, NULL);

  self->doc = doc;
  self->kind = kind;
  self->section = section;
  self->material = material;
  self->ribbon = ribbon;
  self->rsection = rsection;
  self->n_items = list_count (self);
  g_ptr_array_add (doc->lists, self);
  return self;
}

/* Recounts and drops every node (after a structural change or a new model). */
static void
list_reset (TressChaNodeList *self)
{
  guint old = self->n_items;

  list_drop_cache (self);
  self->n_items = list_count (self);
  if (old != 0 || self->n_items != 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, old, self->n_items);
}

static int
compare_uint (const void *a, const void *b)
{
  guint x = *(const guint *)a, y = *(const guint *)b;

  return x < y ? -1 : x > y;
}

/* Bumps the cached nodes of @self that @change touches. */
static void
list_refresh (TressChaNodeList *self, const TressChaChange *change)
{
  guint i;

  if (self->cache == NULL)
    return;
  for (i = 0; i < self->n_items; i++)
    {
      TressChaNode *node = self->cache[i];
      gboolean hit = FALSE;

      if (node == NULL)
        continue;
      switch (node->kind)
        {
        case TRESS_CHA_NODE_SECTION:
        case TRESS_CHA_NODE_MATERIAL:
          hit = TRUE;
          break;
        case TRESS_CHA_NODE_RIBBON:
        case TRESS_CHA_NODE_RIBBON_SECTION:
          hit = change->n_ribbons == 0
                || bsearch (&(guint){ (guint)node->ribbon }, change->ribbons, change->n_ribbons,
                            sizeof (guint), compare_uint)
                       != NULL;
          break;
        case TRESS_CHA_NODE_LINE:
          {
            guint k;

            hit = change->n_ribbons == 0 && change->n_lines == 0;
            for (k = 0; !hit && k < change->n_ribbons; k++)
              hit = change->ribbons[k] == (guint)node->ribbon;
            for (k = 0; !hit && k < change->n_lines; k++)
              hit = change->lines[k] == (guint)node->line;
          }
          break;
        default:
          break;
        }
      if (hit)
        node_bump (node);
    }
}

/* ---- node text ------------------------------------------------------------ */

static const TressChaMaterial *
node_material (TressChaNode *node)
{
  return list_material (node->doc, node->section, node->material);
}

static void
append_part (GString *s, TressChaDocument *doc, guint32 part)
{
  const char *name
      = doc != NULL && doc->part_name != NULL ? doc->part_name (part, doc->part_name_data) : NULL;

  if (name != NULL)
    g_string_append_printf (s, "%u · %s", part, name);
  else
    g_string_append_printf (s, "%u", part);
}

char *
tress_cha_document_part_label (TressChaDocument *self, guint32 part)
{
  GString *s = g_string_new (NULL);

  append_part (s, self, part);
  return g_string_free (s, FALSE);
}

static void
append_refs (GString *s, TressChaDocument *doc, const TressChaMaterial *m, const TressChaLine *line)
{
  guint k;

  for (k = 0; k < 3; k++)
    {
      gint64 part = tress_cha_material_ref_body_part (m, line, k);

      if (k > 0)
        g_string_append_c (s, ' ');
      if (part >= 0)
        {
          append_part (s, doc, (guint32)part);
          g_string_append_printf (s, ":%u", tress_cha_line_get_weight (line, k));
        }
      else
        g_string_append_printf (s, "?%u:%u", line->refs[k], tress_cha_line_get_weight (line, k));
    }
}

char *
tress_cha_node_get_text (TressChaNode *node, TressChaColumn column)
{
  TressChaFile *file = node->doc != NULL ? tress_cha_document_get_cha (node->doc) : NULL;
  const TressChaMaterial *m;
  GString *s;
  guint first, n, i;

  if (file == NULL)
    return g_strdup ("");
  m = node_material (node);
  switch (node->kind)
    {
    case TRESS_CHA_NODE_SECTION:
      if (column != TRESS_CHA_COLUMN_NAME || (guint)node->section >= file->n_sections)
        return g_strdup ("");
      {
        const TressChaSection *sec = &file->sections[node->section];
        g_autofree char *name = tress_cha_section_get_name (sec);

        if (sec->radeon != NULL)
          {
            guint nm = sec->radeon->n_materials, nr = sec->radeon->n_morphs;
            guint nq = sec->radeon->n_moralities;
            g_autofree char *materials
                = g_strdup_printf (ngettext ("%u material", "%u materials", nm), nm);
            g_autofree char *morphs = g_strdup_printf (ngettext ("%u morph", "%u morphs", nr), nr);
            g_autofree char *moralities
                = g_strdup_printf (ngettext ("%u morality", "%u moralities", nq), nq);

            /* Translators: a section name, then its counts of materials, morphs and moralities. */
            return g_strdup_printf (_ ("%s (%s, %s, %s)"), name, materials, morphs, moralities);
          }
        {
          gsize size = sec->opaque != NULL ? g_bytes_get_size (sec->opaque) : 0;

          return g_strdup_printf (ngettext ("%s — kept as is (%" G_GSIZE_FORMAT " byte)",
                                            "%s — kept as is (%" G_GSIZE_FORMAT " bytes)",
                                            size > G_MAXULONG ? G_MAXULONG : (gulong)size),
                                  name, size);
        }
      }
    case TRESS_CHA_NODE_MATERIAL:
      if (m == NULL || (column != TRESS_CHA_COLUMN_NAME && column != TRESS_CHA_COLUMN_ATTACH))
        return g_strdup ("");
      if (column == TRESS_CHA_COLUMN_NAME)
        {
          g_autofree char *count = tress_format_count (m->n_ribbons);

          /* Short enough for the tree's narrowest width; the body parts are in
           * the "Attached" column. */
          return g_strdup_printf (
              ngettext ("material %d · %s ribbon", "material %d · %s ribbons", m->n_ribbons),
              node->material, count);
        }
      s = g_string_new (NULL);
      for (i = 0; i < m->n_applied && i < 32; i++)
        {
          g_string_append (s, i == 0 ? "" : ", ");
          append_part (s, node->doc, m->applied[i]);
        }
      if (m->n_applied > 32)
        g_string_append (s, ", …");
      return g_string_free (s, FALSE);
    case TRESS_CHA_NODE_RIBBON:
      if (m == NULL || (guint)node->ribbon >= m->n_ribbons)
        return g_strdup ("");
      switch (column)
        {
        case TRESS_CHA_COLUMN_NAME:
          return g_strdup_printf (_ ("ribbon %d"), node->ribbon);
        case TRESS_CHA_COLUMN_SECTIONS:
          return g_strdup_printf ("%u", m->n_sections[node->ribbon]);
        case TRESS_CHA_COLUMN_ATTACH:
          return tress_cha_document_part_label (node->doc, m->attach[node->ribbon]);
        case TRESS_CHA_COLUMN_REFS:
          if (!ribbon_lines (m, node->ribbon, &first, &n) || n == 0)
            return g_strdup ("");
          s = g_string_new (NULL);
          append_refs (s, node->doc, m, &m->lines[first]);
          return g_string_free (s, FALSE);
        case TRESS_CHA_COLUMN_QUALITY:
          return g_strdup_printf ("%u", m->quality[node->ribbon]);
        case TRESS_CHA_COLUMN_LENGTH:
          return g_strdup_printf ("%.4f", m->lengths != NULL ? m->lengths[0][node->ribbon] : 0.f);
        case TRESS_CHA_COLUMN_PROBLEMS:
          n = tress_cha_document_ribbon_problems (node->doc, (guint)node->material,
                                                  (guint)node->ribbon);
          return n > 0 ? g_strdup_printf ("⚠ %u", n) : g_strdup ("");
        default:
          return g_strdup ("");
        }
    case TRESS_CHA_NODE_RIBBON_SECTION:
      if (column == TRESS_CHA_COLUMN_NAME)
        return g_strdup_printf (_ ("section %d"), node->rsection + 1);
      return g_strdup ("");
    case TRESS_CHA_NODE_LINE:
      if (m == NULL || m->lines == NULL || node->line < 0 || (guint)node->line >= m->n_lines)
        return g_strdup ("");
      {
        const TressChaLine *line = &m->lines[node->line];

        switch (column)
          {
          case TRESS_CHA_COLUMN_NAME:
            return g_strdup_printf (_ ("line %d"), node->line);
          case TRESS_CHA_COLUMN_SECTIONS:
            return g_strdup_printf ("%u", tress_cha_line_section (line));
          case TRESS_CHA_COLUMN_REFS:
            s = g_string_new (NULL);
            append_refs (s, node->doc, m, line);
            return g_string_free (s, FALSE);
          default:
            return g_strdup ("");
          }
      }
    default:
      return g_strdup ("");
    }
}

double
tress_cha_node_get_sort_key (TressChaNode *node, TressChaColumn column)
{
  const TressChaMaterial *m = node->doc != NULL ? node_material (node) : NULL;
  guint first, n;

  if (node->kind != TRESS_CHA_NODE_RIBBON || m == NULL || (guint)node->ribbon >= m->n_ribbons)
    return node->kind == TRESS_CHA_NODE_LINE ? node->line : G_MAXDOUBLE;
  switch (column)
    {
    case TRESS_CHA_COLUMN_NAME:
      return node->ribbon;
    case TRESS_CHA_COLUMN_SECTIONS:
      return m->n_sections[node->ribbon];
    case TRESS_CHA_COLUMN_ATTACH:
      return m->attach[node->ribbon];
    case TRESS_CHA_COLUMN_REFS:
      if (!ribbon_lines (m, node->ribbon, &first, &n) || n == 0)
        return G_MAXDOUBLE;
      return (double)tress_cha_material_ref_body_part (m, &m->lines[first], 0) * 256
             + tress_cha_line_get_weight (&m->lines[first], 0);
    case TRESS_CHA_COLUMN_QUALITY:
      return m->quality[node->ribbon];
    case TRESS_CHA_COLUMN_LENGTH:
      return m->lengths != NULL ? m->lengths[0][node->ribbon] : 0;
    case TRESS_CHA_COLUMN_PROBLEMS:
      return tress_cha_document_ribbon_problems (node->doc, (guint)node->material,
                                                 (guint)node->ribbon);
    default:
      return G_MAXDOUBLE;
    }
}

/* ---- document ------------------------------------------------------------- */

void
tress_cha_document_set_part_names (TressChaDocument *self, TressChaPartNameFunc func,
                                   gpointer user_data)
{
  self->part_name = func;
  self->part_name_data = user_data;
  tress_cha_document_part_names_changed (self);
}

void
tress_cha_document_part_names_changed (TressChaDocument *self)
{
  /* Every made row shows its text again; nothing in the model changed. */
  const TressChaChange all = { 0, -1, 0, NULL, 0, NULL };

  for (guint i = 0; i < self->lists->len; i++)
    list_refresh (g_ptr_array_index (self->lists, i), &all);
}

TressChaFile *
tress_cha_document_get_cha (TressChaDocument *self)
{
  return tress_document_get_model (TRESS_DOCUMENT (self));
}

static void
on_cha_change (TressChaFile *file, const TressChaChange *change, gboolean undo, gpointer user_data)
{
  TressChaDocument *self = user_data;
  guint i;

  /* Before any view hears of the change: the problems are the changed model's. */
  tress_document_invalidate_problems (TRESS_DOCUMENT (self));
  g_clear_pointer (&self->problem_count, g_hash_table_unref);
  for (i = 0; i < self->lists->len; i++)
    {
      TressChaNodeList *list = g_ptr_array_index (self->lists, i);
      gboolean same_material
          = change->material < 0 || list->material == change->material || list->material < 0;

      if (!same_material)
        continue;
      if ((change->flags & TRESS_CHA_CHANGE_STRUCTURE) && list->kind != TRESS_CHA_NODE_SECTION
          && list->kind != TRESS_CHA_NODE_MATERIAL)
        list_reset (list);
      else
        list_refresh (list, change);
    }
  if (change->flags & TRESS_CHA_CHANGE_STRUCTURE)
    {
      /* Ribbon indices moved: keep the selection only where it still exists. */
      g_autofree TressChaRibbonId *kept = NULL;
      guint n = 0, j;

      kept = g_new (TressChaRibbonId, self->selection->len + 1);
      for (j = 0; j < self->selection->len; j++)
        {
          TressChaRibbonId id = g_array_index (self->selection, TressChaRibbonId, j);

          if (id.material < file->radeon->n_materials
              && id.ribbon < file->radeon->materials[id.material].n_ribbons)
            kept[n++] = id;
        }
      tress_cha_document_set_selection (self, kept, n, NULL);
    }
  g_signal_emit (self, signals[SIGNAL_FUR_CHANGED], 0, change, undo);
}

static void
tress_cha_document_model_changed (TressDocument *doc)
{
  TressChaDocument *self = TRESS_CHA_DOCUMENT (doc);
  TressChaFile *file = tress_cha_document_get_cha (self);
  guint i;

  if (file != NULL)
    tress_cha_file_set_change_func (file, on_cha_change, self, NULL);
  g_clear_pointer (&self->problem_count, g_hash_table_unref);
  g_array_set_size (self->selection, 0);
  for (i = 0; i < self->lists->len; i++)
    list_reset (g_ptr_array_index (self->lists, i));
  g_signal_emit (self, signals[SIGNAL_SELECTION_CHANGED], 0, NULL);
}

static void
on_document_changed (TressChaDocument *self)
{
  g_clear_pointer (&self->problem_count, g_hash_table_unref);
}

static void
tress_cha_document_dispose (GObject *object)
{
  TressChaDocument *self = TRESS_CHA_DOCUMENT (object);
  TressChaFile *file = tress_cha_document_get_cha (self);

  if (file != NULL && file->change_data == self)
    tress_cha_file_set_change_func (file, NULL, NULL, NULL);
  g_clear_object (&self->root);
  G_OBJECT_CLASS (tress_cha_document_parent_class)->dispose (object);
}

static void
tress_cha_document_finalize (GObject *object)
{
  TressChaDocument *self = TRESS_CHA_DOCUMENT (object);
  guint i;

  /* Lists still held by views outlive us: they become empty. */
  for (i = 0; i < self->lists->len; i++)
    {
      TressChaNodeList *list = g_ptr_array_index (self->lists, i);

      list->doc = NULL;
      if (list->cache != NULL)
        for (guint k = 0; k < list->n_items; k++)
          if (list->cache[k] != NULL)
            list->cache[k]->doc = NULL;
    }
  g_ptr_array_unref (self->lists);
  g_array_unref (self->selection);
  g_clear_pointer (&self->problem_count, g_hash_table_unref);
  G_OBJECT_CLASS (tress_cha_document_parent_class)->finalize (object);
}

static void
tress_cha_document_class_init (TressChaDocumentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TressDocumentClass *doc_class = TRESS_DOCUMENT_CLASS (klass);

  object_class->dispose = tress_cha_document_dispose;
  object_class->finalize = tress_cha_document_finalize;
  doc_class->model_changed = tress_cha_document_model_changed;

  /* (const TressChaChange *change, gboolean undo) */
  signals[SIGNAL_FUR_CHANGED]
      = g_signal_new ("fur-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                      NULL, G_TYPE_NONE, 2, G_TYPE_POINTER, G_TYPE_BOOLEAN);
  /* (gpointer origin) */
  signals[SIGNAL_SELECTION_CHANGED]
      = g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                      NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);
}

static void
tress_cha_document_init (TressChaDocument *self)
{
  /* Runs before TressDocument's constructed() calls model_changed(). */
  self->lists = g_ptr_array_new ();
  self->selection = g_array_new (FALSE, FALSE, sizeof (TressChaRibbonId));
  g_signal_connect (self, "changed", G_CALLBACK (on_document_changed), NULL);
}

void
tress_cha_document_register (void)
{
  tress_document_register_type ("cha", TRESS_TYPE_CHA_DOCUMENT);
}

GListModel *
tress_cha_document_get_root (TressChaDocument *self)
{
  if (self->root == NULL)
    self->root = list_new (self, TRESS_CHA_NODE_SECTION, -1, -1, -1, -1);
  return G_LIST_MODEL (self->root);
}

GListModel *
tress_cha_document_create_children (TressChaDocument *self, TressChaNode *node)
{
  switch (node->kind)
    {
    case TRESS_CHA_NODE_SECTION:
      if (list_radeon (self, node->section) == NULL)
        return NULL;
      return G_LIST_MODEL (list_new (self, TRESS_CHA_NODE_MATERIAL, node->section, -1, -1, -1));
    case TRESS_CHA_NODE_MATERIAL:
      return G_LIST_MODEL (
          list_new (self, TRESS_CHA_NODE_RIBBON, node->section, node->material, -1, -1));
    case TRESS_CHA_NODE_RIBBON:
      return G_LIST_MODEL (list_new (self, TRESS_CHA_NODE_RIBBON_SECTION, node->section,
                                     node->material, node->ribbon, -1));
    case TRESS_CHA_NODE_RIBBON_SECTION:
      return G_LIST_MODEL (list_new (self, TRESS_CHA_NODE_LINE, node->section, node->material,
                                     node->ribbon, node->rsection));
    case TRESS_CHA_NODE_LINE:
    default:
      return NULL;
    }
}

GHashTable *
tress_cha_document_get_ribbon_problems (TressChaDocument *self)
{
  TressChaFile *file = tress_cha_document_get_cha (self);

  /* Read off the problem list, or where that one sums a rule up after so
   * many places of a material, counted by the validator once more. */
  if (self->problem_count == NULL)
    self->problem_count = file != NULL ? tress_cha_file_count_ribbon_problems (
                              file, tress_document_get_problems (TRESS_DOCUMENT (self)))
                                       : g_hash_table_new (g_int64_hash, g_int64_equal);
  return self->problem_count;
}

guint
tress_cha_document_ribbon_problems (TressChaDocument *self, guint material, guint ribbon)
{
  return tress_cha_ribbon_problems_lookup (tress_cha_document_get_ribbon_problems (self), material,
                                           ribbon);
}

/* ---- selection ------------------------------------------------------------ */

static int
compare_ids (gconstpointer a, gconstpointer b)
{
  const TressChaRibbonId *x = a, *y = b;

  if (x->material != y->material)
    return x->material < y->material ? -1 : 1;
  return x->ribbon < y->ribbon ? -1 : x->ribbon > y->ribbon;
}

const TressChaRibbonId *
tress_cha_document_get_selection (TressChaDocument *self, guint *n)
{
  *n = self->selection->len;
  return (const TressChaRibbonId *)(gpointer)self->selection->data;
}

void
tress_cha_document_set_selection (TressChaDocument *self, const TressChaRibbonId *ribbons, guint n,
                                  gpointer origin)
{
  TressChaFile *file = tress_cha_document_get_cha (self);
  g_autoptr (GArray) next = g_array_sized_new (FALSE, FALSE, sizeof (TressChaRibbonId), n);
  guint i, out = 0;

  for (i = 0; i < n; i++)
    if (file != NULL && file->radeon != NULL && ribbons[i].material < file->radeon->n_materials
        && ribbons[i].ribbon < file->radeon->materials[ribbons[i].material].n_ribbons)
      g_array_append_val (next, ribbons[i]);
  g_array_sort (next, compare_ids);
  for (i = 0; i < next->len; i++)
    if (out == 0
        || compare_ids (&g_array_index (next, TressChaRibbonId, i),
                        &g_array_index (next, TressChaRibbonId, out - 1))
               != 0)
      g_array_index (next, TressChaRibbonId, out++) = g_array_index (next, TressChaRibbonId, i);
  g_array_set_size (next, out);
  if (next->len == self->selection->len
      && (next->len == 0
          || memcmp (next->data, self->selection->data, next->len * sizeof (TressChaRibbonId))
                 == 0))
    return;
  g_array_unref (self->selection);
  self->selection = g_steal_pointer (&next);
  g_signal_emit (self, signals[SIGNAL_SELECTION_CHANGED], 0, origin);
}

gboolean
tress_cha_document_is_selected (TressChaDocument *self, guint material, guint ribbon)
{
  TressChaRibbonId key = { material, ribbon };

  if (self->selection->len == 0)
    return FALSE;
  return bsearch (&key, self->selection->data, self->selection->len, sizeof (TressChaRibbonId),
                  compare_ids)
         != NULL;
}

TressChaLineId *
tress_cha_document_get_selected_lines (TressChaDocument *self, guint *n)
{
  TressChaFile *file = tress_cha_document_get_cha (self);
  g_autoptr (GArray) lines = g_array_new (FALSE, FALSE, sizeof (TressChaLineId));
  guint i;

  for (i = 0; file != NULL && file->radeon != NULL && i < self->selection->len; i++)
    {
      TressChaRibbonId id = g_array_index (self->selection, TressChaRibbonId, i);
      guint first, count, k;

      if (!tress_cha_material_ribbon_lines (&file->radeon->materials[id.material], id.ribbon,
                                            &first, &count))
        continue;
      for (k = 0; k < count; k++)
        {
          TressChaLineId l = { id.material, first + k };

          g_array_append_val (lines, l);
        }
    }
  *n = lines->len;
  return (TressChaLineId *)(gpointer)g_array_free (g_steal_pointer (&lines), FALSE);
}
