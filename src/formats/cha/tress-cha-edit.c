/* tress-cha-edit.c: undoable, invariant-keeping edits of a creature-fur model
 *
 * Every edit is one command made of primitive operations, each holding the
 * exact before and after bytes of what it changes, addressed by index:
 *   PATCH   elements [index, index+count) of one array of one material;
 *   SCALAR  one fixed or repeated u32 (header, radeon or material count);
 *   APPLIED a material's whole applied list;
 *   RIBBON  a whole ribbon (lines included) removed and/or inserted at an index.
 * Apply runs the operations in order with the after states, undo in reverse
 * order with the before states, so undo gives back the very same bytes. A
 * RIBBON operation needs the material's first-line indices to be the running
 * sum and its repeated counts to agree (checked when the edit is built), which
 * makes inserting and removing exact inverses.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-cha-edit.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "core/tress-progress.h"
#include "tress-cha-private.h"

typedef enum
{
  OP_PATCH,
  OP_SCALAR,
  OP_APPLIED,
  OP_RIBBON,
} OpKind;

typedef enum
{
  A_LINES,
  A_BASE,
  A_MORPH,
  A_SECTIONS,
  A_QUALITY,
  A_UV,
  A_LENGTHS,
  A_ZSORT,
  A_ATTACH,
  A_FIRST_LINE,
  A_N_LINES,
} ArrayId;

typedef enum
{
  S_HEADER_FOUR,
  S_VERSION,
  S_THREE,
  S_ONE,
  S_LINE_ARRAY_SIZE,
  S_MORPHS_PLUS_ONE,
  S_RIBBONS_AGAIN,
  S_MORALITIES_PLUS_ONE,
  S_RIBBONS_THIRD,
  S_LINES_AGAIN,
} ScalarId;

/* A whole ribbon, for RIBBON operations. */
typedef struct
{
  guint32 n_lines;
  TressChaLine *lines;
  float base[6];
  float *morph; /* 6 × n_morphs */
  guint32 n_sections, quality, attach;
  float *lengths; /* n_moralities + 1 */
  float zsort[3];
} RibbonBlob;

typedef struct
{
  OpKind kind;
  guint material;
  guint array; /* ArrayId, or ScalarId for OP_SCALAR */
  guint sub;   /* morph or morality */
  guint index; /* first element; ribbon for OP_RIBBON; before length for OP_APPLIED */
  guint count; /* elements; after length for OP_APPLIED */
  gsize data;  /* offset of the before state in the command's data; after follows */
  gsize len;   /* bytes of one state (PATCH) */
  guint32 sbefore, safter;
  RibbonBlob *before, *after;
} Op;

typedef struct
{
  GArray *ops;
  GByteArray *data;
} Ops;

typedef struct
{
  TressCommand parent;
  Ops ops;
  TressChaChange change;
  GArray *ribbons;
  GArray *lines;
} ChaCommand;

/* ---- helpers -------------------------------------------------------------- */

static gboolean refuse (GError **error, const char *format, ...) G_GNUC_PRINTF (2, 3);

static gboolean
refuse (GError **error, const char *format, ...)
{
  va_list args;
  char *msg;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error_literal (error, TRESS_ERROR, TRESS_ERROR_REFUSED, msg);
  g_free (msg);
  return FALSE;
}

/* @part is no body part of a model with @max of them. */
static gboolean
refuse_body_part (GError **error, guint32 part, guint32 max)
{
  if (max == 0)
    return refuse (error, "body part %u does not exist: BODY_PART_MAX is 0 (no body parts)", part);
  return refuse (error, "body part %u does not exist: BODY_PART_MAX is %u (body parts 0 to %u)",
                 part, max, max - 1);
}

static TressChaMaterial *
get_material (const TressChaFile *file, guint material, GError **error)
{
  if (file->radeon == NULL)
    {
      refuse (error, "the file has no radeon section");
      return NULL;
    }
  if (material >= file->radeon->n_materials)
    {
      refuse (error, "material %u does not exist (the file has %u)", material,
              file->radeon->n_materials);
      return NULL;
    }
  return &file->radeon->materials[material];
}

static TressChaMaterial *
get_lines_material (const TressChaFile *file, guint material, GError **error)
{
  TressChaMaterial *m = get_material (file, material, error);

  if (m != NULL && m->lines == NULL)
    {
      refuse (error, "the lines of material %u are not decoded (LINE_SIZE %u)", material,
              m->line_size);
      return NULL;
    }
  return m;
}

static TressChaMaterial *
get_ribbon (const TressChaFile *file, TressChaRibbonId id, GError **error)
{
  TressChaMaterial *m = get_material (file, id.material, error);

  if (m != NULL && id.ribbon >= m->n_ribbons)
    {
      refuse (error, "ribbon %u of material %u does not exist (it has %u)", id.ribbon, id.material,
              m->n_ribbons);
      return NULL;
    }
  return m;
}

static gboolean
all_finite (const float *v, guint n)
{
  for (guint i = 0; i < n; i++)
    if (!isfinite (v[i]))
      return FALSE;
  return TRUE;
}

static guint8 *
array_ptr (TressChaFile *file, guint mi, guint array, guint sub, gsize *elem)
{
  TressChaMaterial *m = &file->radeon->materials[mi];

  switch ((ArrayId)array)
    {
    case A_LINES:
      *elem = TRESS_CHA_LINE_SIZE;
      return (guint8 *)m->lines;
    case A_BASE:
      *elem = 24;
      return (guint8 *)m->base_points;
    case A_MORPH:
      *elem = 24;
      return (guint8 *)m->morph_points[sub];
    case A_SECTIONS:
      *elem = 4;
      return (guint8 *)m->n_sections;
    case A_QUALITY:
      *elem = 4;
      return (guint8 *)m->quality;
    case A_UV:
      *elem = 4;
      return (guint8 *)m->uv;
    case A_LENGTHS:
      *elem = 4;
      return (guint8 *)m->lengths[sub];
    case A_ZSORT:
      *elem = 12;
      return (guint8 *)m->zsort;
    case A_ATTACH:
      *elem = 4;
      return (guint8 *)m->attach;
    case A_FIRST_LINE:
      *elem = 4;
      return (guint8 *)m->first_line;
    case A_N_LINES:
      *elem = 4;
      return (guint8 *)m->n_ribbon_lines;
    default:
      g_assert_not_reached ();
    }
}

static guint32 *
scalar_ptr (TressChaFile *file, guint mi, ScalarId id)
{
  TressChaMaterial *m = file->radeon != NULL && mi < file->radeon->n_materials
                            ? &file->radeon->materials[mi]
                            : NULL;

  switch (id)
    {
    case S_HEADER_FOUR:
      return &file->header_four;
    case S_VERSION:
      return &file->version;
    case S_THREE:
      return &file->radeon->always_three;
    case S_ONE:
      return &m->always_one;
    case S_LINE_ARRAY_SIZE:
      return &m->line_array_size;
    case S_MORPHS_PLUS_ONE:
      return &m->morphs_plus_one;
    case S_RIBBONS_AGAIN:
      return &m->n_ribbons_again;
    case S_MORALITIES_PLUS_ONE:
      return &m->moralities_plus_one;
    case S_RIBBONS_THIRD:
      return &m->n_ribbons_third;
    case S_LINES_AGAIN:
      return &m->n_lines_again;
    default:
      g_assert_not_reached ();
    }
}

/* ---- ribbon blobs --------------------------------------------------------- */

static void
blob_free (RibbonBlob *b)
{
  if (b == NULL)
    return;
  g_free (b->lines);
  g_free (b->morph);
  g_free (b->lengths);
  g_free (b);
}

static RibbonBlob *
blob_get (const TressChaFile *file, const TressChaMaterial *m, guint r)
{
  const TressChaRadeon *rad = file->radeon;
  RibbonBlob *b = g_new0 (RibbonBlob, 1);

  b->n_lines = m->n_ribbon_lines[r];
  b->lines = g_memdup2 (&m->lines[m->first_line[r]], MAX (b->n_lines, 1) * sizeof (TressChaLine));
  memcpy (b->base, &m->base_points[6 * (gsize)r], sizeof b->base);
  b->morph = g_new (float, 6 * (gsize)rad->n_morphs + 1);
  for (guint32 k = 0; k < rad->n_morphs; k++)
    memcpy (&b->morph[6 * k], &m->morph_points[k][6 * (gsize)r], 24);
  b->n_sections = m->n_sections[r];
  b->quality = m->quality[r];
  b->attach = m->attach[r];
  b->lengths = g_new (float, rad->n_moralities + 1);
  for (guint32 k = 0; k <= rad->n_moralities; k++)
    b->lengths[k] = m->lengths[k][r];
  memcpy (b->zsort, &m->zsort[3 * (gsize)r], sizeof b->zsort);
  return b;
}

static RibbonBlob *
blob_copy (const TressChaFile *file, const RibbonBlob *src)
{
  RibbonBlob *b = g_memdup2 (src, sizeof *src);

  b->lines = g_memdup2 (src->lines, MAX (src->n_lines, 1) * sizeof (TressChaLine));
  b->morph = g_memdup2 (src->morph, (6 * (gsize)file->radeon->n_morphs + 1) * sizeof (float));
  b->lengths = g_memdup2 (src->lengths, (file->radeon->n_moralities + 1) * sizeof (float));
  return b;
}

static void
arr_insert (void *pp, gsize n, gsize index, gsize elem, const void *src)
{
  guint8 **p = pp;

  *p = g_realloc (*p, (n + 1) * elem);
  memmove (*p + (index + 1) * elem, *p + index * elem, (n - index) * elem);
  memcpy (*p + index * elem, src, elem);
}

static void
arr_remove (void *pp, gsize n, gsize index, gsize elem)
{
  guint8 **p = pp;

  memmove (*p + index * elem, *p + (index + 1) * elem, (n - index - 1) * elem);
  *p = g_realloc (*p, MAX (n - 1, 1) * elem);
}

static void
ribbon_insert (TressChaFile *file, TressChaMaterial *m, guint r, const RibbonBlob *b)
{
  const TressChaRadeon *rad = file->radeon;
  gsize n = m->n_ribbons;
  guint32 pos = r < n ? m->first_line[r] : m->n_lines;

  m->lines = g_realloc (m->lines, MAX ((gsize)m->n_lines + b->n_lines, 1) * sizeof (TressChaLine));
  memmove (&m->lines[pos + b->n_lines], &m->lines[pos],
           ((gsize)m->n_lines - pos) * sizeof (TressChaLine));
  memcpy (&m->lines[pos], b->lines, (gsize)b->n_lines * sizeof (TressChaLine));

  /* A material without ribbons has no per-morph or per-morality arrays yet. */
  if (m->morph_points == NULL)
    m->morph_points = g_new0 (float *, MAX (rad->n_morphs, 1));
  if (m->lengths == NULL)
    m->lengths = g_new0 (float *, (gsize)rad->n_moralities + 1);
  arr_insert (&m->base_points, n, r, 24, b->base);
  for (guint32 k = 0; k < rad->n_morphs; k++)
    arr_insert (&m->morph_points[k], n, r, 24, &b->morph[6 * k]);
  arr_insert (&m->n_sections, n, r, 4, &b->n_sections);
  arr_insert (&m->quality, n, r, 4, &b->quality);
  for (guint32 k = 0; k <= rad->n_moralities; k++)
    arr_insert (&m->lengths[k], n, r, 4, &b->lengths[k]);
  arr_insert (&m->zsort, n, r, 12, b->zsort);
  arr_insert (&m->attach, n, r, 4, &b->attach);
  arr_insert (&m->first_line, n, r, 4, &pos);
  arr_insert (&m->n_ribbon_lines, n, r, 4, &b->n_lines);
  for (gsize j = r + 1; j <= n; j++)
    m->first_line[j] += b->n_lines;

  m->n_ribbons++;
  m->n_ribbons_again++;
  m->n_ribbons_third++;
  m->n_lines += b->n_lines;
  m->n_lines_again += b->n_lines;
  m->line_array_size += TRESS_CHA_LINE_SIZE * b->n_lines;
}

static void
ribbon_remove (TressChaFile *file, TressChaMaterial *m, guint r)
{
  const TressChaRadeon *rad = file->radeon;
  gsize n = m->n_ribbons;
  guint32 pos = m->first_line[r];
  guint32 nl = m->n_ribbon_lines[r];

  memmove (&m->lines[pos], &m->lines[pos + nl],
           ((gsize)m->n_lines - pos - nl) * sizeof (TressChaLine));
  m->lines = g_realloc (m->lines, MAX ((gsize)m->n_lines - nl, 1) * sizeof (TressChaLine));
  for (gsize j = r + 1; j < n; j++)
    m->first_line[j] -= nl;

  arr_remove (&m->base_points, n, r, 24);
  for (guint32 k = 0; k < rad->n_morphs; k++)
    arr_remove (&m->morph_points[k], n, r, 24);
  arr_remove (&m->n_sections, n, r, 4);
  arr_remove (&m->quality, n, r, 4);
  for (guint32 k = 0; k <= rad->n_moralities; k++)
    arr_remove (&m->lengths[k], n, r, 4);
  arr_remove (&m->zsort, n, r, 12);
  arr_remove (&m->attach, n, r, 4);
  arr_remove (&m->first_line, n, r, 4);
  arr_remove (&m->n_ribbon_lines, n, r, 4);

  m->n_ribbons--;
  m->n_ribbons_again--;
  m->n_ribbons_third--;
  m->n_lines -= nl;
  m->n_lines_again -= nl;
  m->line_array_size -= TRESS_CHA_LINE_SIZE * nl;
}

/* Structural edits need a material whose layout bookkeeping is consistent. */
static gboolean
material_sound (const TressChaMaterial *m, guint mi, GError **error)
{
  guint64 running = 0;

  if (m->lines == NULL)
    return refuse (error, "the lines of material %u are not decoded (LINE_SIZE %u)", mi,
                   m->line_size);
  if (m->n_ribbons_again != m->n_ribbons || m->n_ribbons_third != m->n_ribbons
      || m->n_lines_again != m->n_lines
      || (guint64)m->line_array_size != (guint64)TRESS_CHA_LINE_SIZE * m->n_lines)
    return refuse (error, "the repeated counts of material %u disagree; apply the count fix first",
                   mi);
  for (guint32 r = 0; r < m->n_ribbons; r++)
    {
      if (m->first_line[r] != running)
        return refuse (error,
                       "the first-line indices of material %u are not the running sum of line "
                       "counts; apply the first-line fix first",
                       mi);
      running += m->n_ribbon_lines[r];
    }
  if (running != m->n_lines)
    return refuse (error, "the ribbons of material %u do not cover its %u lines exactly", mi,
                   m->n_lines);
  return TRUE;
}

/* ---- operations ----------------------------------------------------------- */

static void
ops_init (Ops *ops)
{
  ops->ops = g_array_new (FALSE, TRUE, sizeof (Op));
  ops->data = g_byte_array_new ();
}

static void
ops_clear (Ops *ops)
{
  if (ops->ops != NULL)
    for (guint i = 0; i < ops->ops->len; i++)
      {
        Op *op = &g_array_index (ops->ops, Op, i);
        blob_free (op->before);
        blob_free (op->after);
      }
  g_clear_pointer (&ops->ops, g_array_unref);
  g_clear_pointer (&ops->data, g_byte_array_unref);
}

/* Records a PATCH; the before state is read from the model now. */
static void
ops_patch (Ops *ops, TressChaFile *file, guint mi, ArrayId array, guint sub, guint index,
           guint count, const void *after)
{
  Op op = { OP_PATCH, mi, array, sub, index, count, 0, 0, 0, 0, NULL, NULL };
  gsize elem;
  const guint8 *base = array_ptr (file, mi, array, sub, &elem);

  op.len = elem * count;
  op.data = ops->data->len;
  g_byte_array_append (ops->data, base + elem * index, op.len);
  g_byte_array_append (ops->data, after, op.len);
  g_array_append_val (ops->ops, op);
}

static void
ops_scalar (Ops *ops, TressChaFile *file, guint mi, ScalarId id, guint32 after)
{
  Op op = { OP_SCALAR, mi, id, 0, 0, 0, 0, 0, 0, after, NULL, NULL };

  op.sbefore = *scalar_ptr (file, mi, id);
  if (op.sbefore != after)
    g_array_append_val (ops->ops, op);
}

static void
ops_applied (Ops *ops, const TressChaMaterial *m, guint mi, const guint32 *after, guint n_after)
{
  Op op = { OP_APPLIED, mi, 0, 0, m->n_applied, n_after, 0, 0, 0, 0, NULL, NULL };

  op.data = ops->data->len;
  g_byte_array_append (ops->data, (const guint8 *)m->applied, 4 * m->n_applied);
  g_byte_array_append (ops->data, (const guint8 *)after, 4 * n_after);
  g_array_append_val (ops->ops, op);
}

static void
ops_ribbon (Ops *ops, guint mi, guint r, RibbonBlob *before, RibbonBlob *after)
{
  Op op = { OP_RIBBON, mi, 0, 0, r, 0, 0, 0, 0, 0, before, after };

  g_array_append_val (ops->ops, op);
}

static void
op_apply (TressChaFile *file, const guint8 *data, const Op *op, gboolean undo)
{
  switch (op->kind)
    {
    case OP_PATCH:
      {
        gsize elem;
        guint8 *base = array_ptr (file, op->material, op->array, op->sub, &elem);
        memcpy (base + elem * op->index, data + op->data + (undo ? 0 : op->len), op->len);
      }
      break;
    case OP_SCALAR:
      *scalar_ptr (file, op->material, op->array) = undo ? op->sbefore : op->safter;
      break;
    case OP_APPLIED:
      {
        TressChaMaterial *m = &file->radeon->materials[op->material];
        guint n = undo ? op->index : op->count;
        const guint8 *src = data + op->data + (undo ? 0 : 4 * (gsize)op->index);

        m->applied = g_realloc (m->applied, MAX (n, 1) * 4);
        memcpy (m->applied, src, 4 * (gsize)n);
        m->n_applied = n;
      }
      break;
    case OP_RIBBON:
      {
        TressChaMaterial *m = &file->radeon->materials[op->material];
        const RibbonBlob *out = undo ? op->after : op->before;
        const RibbonBlob *in = undo ? op->before : op->after;

        if (out != NULL)
          ribbon_remove (file, m, op->index);
        if (in != NULL)
          ribbon_insert (file, m, op->index, in);
      }
      break;
    default:
      g_assert_not_reached ();
    }
}

/* ---- the command ---------------------------------------------------------- */

static void
cha_command_apply (TressCommand *cmd, gpointer target, gboolean undo)
{
  ChaCommand *self = (ChaCommand *)cmd;
  TressChaFile *file = target;
  GArray *ops = self->ops.ops;

  if (!undo)
    for (guint i = 0; i < ops->len; i++)
      op_apply (file, self->ops.data->data, &g_array_index (ops, Op, i), FALSE);
  else
    for (guint i = ops->len; i-- > 0;)
      op_apply (file, self->ops.data->data, &g_array_index (ops, Op, i), TRUE);
  if (file->change_func != NULL)
    file->change_func (file, &self->change, undo, file->change_data);
}

static gsize
cha_command_size (const TressCommand *cmd)
{
  const ChaCommand *self = (const ChaCommand *)cmd;
  gsize size = sizeof *self + self->ops.data->len + self->ops.ops->len * sizeof (Op);

  for (guint i = 0; i < self->ops.ops->len; i++)
    {
      const Op *op = &g_array_index (self->ops.ops, Op, i);
      if (op->before != NULL)
        size += sizeof (RibbonBlob) + op->before->n_lines * sizeof (TressChaLine);
      if (op->after != NULL)
        size += sizeof (RibbonBlob) + op->after->n_lines * sizeof (TressChaLine);
    }
  return size;
}

static void
cha_command_finalize (TressCommand *cmd)
{
  ChaCommand *self = (ChaCommand *)cmd;

  ops_clear (&self->ops);
  g_clear_pointer (&self->ribbons, g_array_unref);
  g_clear_pointer (&self->lines, g_array_unref);
}

static const TressCommandClass cha_command_class;

/* Consecutive edits of the same values (a drag, repeated typing) merge: both
 * commands must patch exactly the same elements; @cmd keeps its before state
 * and takes @next's after state. */
static gboolean
cha_command_merge (TressCommand *cmd, const TressCommand *next)
{
  ChaCommand *a = (ChaCommand *)cmd;
  const ChaCommand *b = (const ChaCommand *)next;

  if (next->klass != &cha_command_class || a->ops.ops->len != b->ops.ops->len)
    return FALSE;
  for (guint i = 0; i < a->ops.ops->len; i++)
    {
      const Op *x = &g_array_index (a->ops.ops, Op, i);
      const Op *y = &g_array_index (b->ops.ops, Op, i);

      if (x->kind != OP_PATCH || y->kind != OP_PATCH || x->material != y->material
          || x->array != y->array || x->sub != y->sub || x->index != y->index
          || x->count != y->count)
        return FALSE;
    }
  for (guint i = 0; i < a->ops.ops->len; i++)
    {
      const Op *x = &g_array_index (a->ops.ops, Op, i);
      const Op *y = &g_array_index (b->ops.ops, Op, i);

      memcpy (a->ops.data->data + x->data + x->len, b->ops.data->data + y->data + y->len, x->len);
    }
  return TRUE;
}

static const TressCommandClass cha_command_class = {
  .type_name = "TressChaCommand",
  .apply = cha_command_apply,
  .merge = cha_command_merge,
  .size = cha_command_size,
  .finalize = cha_command_finalize,
};

const TressChaChange *
tress_cha_command_get_change (const TressCommand *cmd)
{
  if (cmd == NULL || cmd->klass != &cha_command_class)
    return NULL;
  return &((const ChaCommand *)cmd)->change;
}

static int
cmp_uint (gconstpointer a, gconstpointer b)
{
  guint x = *(const guint *)a, y = *(const guint *)b;
  return x < y ? -1 : x > y;
}

static void
sort_unique (GArray *a)
{
  guint n = 0;

  g_array_sort (a, cmp_uint);
  for (guint i = 0; i < a->len; i++)
    if (n == 0 || g_array_index (a, guint, i) != g_array_index (a, guint, n - 1))
      g_array_index (a, guint, n++) = g_array_index (a, guint, i);
  g_array_set_size (a, n);
}

static void
describe_change (ChaCommand *self, const TressChaFile *file)
{
  TressChaChange *c = &self->change;
  GArray *ops = self->ops.ops;
  gboolean several = FALSE;
  gboolean whole = FALSE;

  gboolean weights_only = TRUE;

  self->ribbons = g_array_new (FALSE, FALSE, sizeof (guint));
  self->lines = g_array_new (FALSE, FALSE, sizeof (guint));
  c->material = -1;
  for (guint i = 0; i < ops->len; i++)
    {
      const Op *op = &g_array_index (ops, Op, i);
      gboolean material_op = !(op->kind == OP_SCALAR && op->array <= S_THREE);

      if (material_op)
        {
          if (c->material == -1 && !several)
            c->material = (int)op->material;
          else if (c->material != (int)op->material)
            several = TRUE;
        }
      switch (op->kind)
        {
        case OP_PATCH:
          if (op->array == A_LINES)
            {
              const TressChaMaterial *m = &file->radeon->materials[op->material];
              const guint8 *before = self->ops.data->data + op->data;
              c->flags |= TRESS_CHA_CHANGE_LINES;
              for (guint k = 0; k < op->count; k++)
                {
                  const guint8 *a = before + (gsize)k * TRESS_CHA_LINE_SIZE;
                  const guint8 *b = a + op->len;
                  gsize w = G_STRUCT_OFFSET (TressChaLine, weights);
                  guint line = op->index + k;
                  int r = tress_cha_material_find_ribbon_of_line (m, line);

                  if (weights_only
                      && (memcmp (a, b, w) != 0
                          || memcmp (a + w + 3, b + w + 3, TRESS_CHA_LINE_SIZE - w - 3) != 0))
                    weights_only = FALSE;
                  g_array_append_val (self->lines, line);
                  if (r >= 0)
                    g_array_append_val (self->ribbons, r);
                }
            }
          else if (op->array == A_UV)
            c->flags |= TRESS_CHA_CHANGE_MATERIAL;
          else
            {
              c->flags |= TRESS_CHA_CHANGE_RIBBONS;
              for (guint k = 0; k < op->count; k++)
                {
                  guint r = op->index + k;
                  g_array_append_val (self->ribbons, r);
                }
            }
          break;
        case OP_SCALAR:
          c->flags |= op->array <= S_THREE ? TRESS_CHA_CHANGE_HEADER : TRESS_CHA_CHANGE_MATERIAL;
          break;
        case OP_APPLIED:
          c->flags |= TRESS_CHA_CHANGE_MATERIAL;
          break;
        case OP_RIBBON:
          c->flags |= TRESS_CHA_CHANGE_STRUCTURE;
          g_array_append_val (self->ribbons, op->index);
          if (op->before == NULL || op->after == NULL)
            whole = TRUE; /* indices after it shift */
          break;
        default:
          break;
        }
    }
  if (several)
    {
      c->material = -1;
      g_array_set_size (self->ribbons, 0);
      g_array_set_size (self->lines, 0);
    }
  if (c->flags == TRESS_CHA_CHANGE_LINES && weights_only)
    c->flags |= TRESS_CHA_CHANGE_WEIGHTS;
  sort_unique (self->ribbons);
  sort_unique (self->lines);
  if (whole && self->ribbons->len > 0)
    g_array_set_size (self->ribbons, 1); /* reload from the first structural change on */
  c->n_ribbons = self->ribbons->len;
  c->ribbons = (const guint *)self->ribbons->data;
  c->n_lines = self->lines->len;
  c->lines = (const guint *)self->lines->data;
}

/* ---- edits planned on one thread, performed on another -------------------- */

struct _TressChaBatch
{
  GPtrArray *commands; /* ChaCommand, in the order made */
};

/* The batch this thread's edits go into, or NULL (they are performed). */
static GPrivate current_batch;

void
tress_cha_batch_begin (void)
{
  TressChaBatch *batch = g_new0 (TressChaBatch, 1);

  g_return_if_fail (g_private_get (&current_batch) == NULL);
  batch->commands = g_ptr_array_new_with_free_func ((GDestroyNotify)tress_command_free);
  g_private_set (&current_batch, batch);
}

TressChaBatch *
tress_cha_batch_end (void)
{
  TressChaBatch *batch = g_private_get (&current_batch);

  g_return_val_if_fail (batch != NULL, NULL);
  g_private_set (&current_batch, NULL);
  return batch;
}

guint
tress_cha_batch_get_n_commands (const TressChaBatch *batch)
{
  return batch->commands->len;
}

const char *
tress_cha_batch_get_label (const TressChaBatch *batch, guint i)
{
  g_return_val_if_fail (i < batch->commands->len, NULL);
  return ((TressCommand *)g_ptr_array_index (batch->commands, i))->label;
}

void
tress_cha_batch_perform (TressChaBatch *batch, TressChaFile *file, TressHistory *history)
{
  /* The commands go to the history (or are dropped once applied): the batch
   * is left empty. */
  g_autoptr (GPtrArray) commands = g_steal_pointer (&batch->commands);

  batch->commands = g_ptr_array_new_with_free_func ((GDestroyNotify)tress_command_free);
  g_ptr_array_set_free_func (commands, NULL);
  for (guint i = 0; i < commands->len; i++)
    {
      TressCommand *cmd = g_ptr_array_index (commands, i);

      if (history != NULL)
        tress_history_perform (history, cmd);
      else
        {
          cha_command_apply (cmd, file, FALSE);
          tress_command_free (cmd);
        }
    }
}

void
tress_cha_batch_free (TressChaBatch *batch)
{
  if (batch == NULL)
    return;
  g_ptr_array_unref (batch->commands);
  g_free (batch);
}

/* Turns @ops into a command and performs it, or keeps it in this thread's
 * batch; an empty list changes nothing. */
static gboolean
commit_keyed (TressChaFile *file, TressHistory *history, Ops *ops, const char *label,
              const char *merge_key)
{
  ChaCommand *cmd;
  TressChaBatch *batch = g_private_get (&current_batch);

  if (ops->ops->len == 0)
    {
      ops_clear (ops);
      return TRUE;
    }
  cmd = tress_command_alloc (sizeof (ChaCommand), &cha_command_class, label, merge_key);
  cmd->ops = *ops;
  memset (ops, 0, sizeof *ops);
  describe_change (cmd, file);
  if (batch != NULL)
    g_ptr_array_add (batch->commands, cmd);
  else if (history != NULL)
    tress_history_perform (history, &cmd->parent);
  else
    {
      cha_command_apply (&cmd->parent, file, FALSE);
      tress_command_free (&cmd->parent);
    }
  return TRUE;
}

static gboolean
commit (TressChaFile *file, TressHistory *history, Ops *ops, const char *label)
{
  return commit_keyed (file, history, ops, label, NULL);
}

static int
cmp_line_order (gconstpointer a, gconstpointer b, gpointer data)
{
  const TressChaLineId *lines = data;
  const TressChaLineId *x = &lines[*(const guint *)a], *y = &lines[*(const guint *)b];

  if (x->material != y->material)
    return x->material < y->material ? -1 : 1;
  return x->line < y->line ? -1 : x->line > y->line;
}

guint
cha_record_line_edits (TressChaFile *file, TressHistory *history, const TressChaLineId *lines,
                       const TressChaLine *before, guint n, const char *label)
{
  g_autofree guint *order = g_new (guint, n + 1);
  ChaCommand *cmd;
  Ops ops;
  guint i, recorded = 0;

  for (i = 0; i < n; i++)
    order[i] = i;
  g_qsort_with_data (order, (gint)n, sizeof (guint), cmp_line_order, (gpointer)lines);
  ops_init (&ops);
  for (i = 0; i < n;)
    {
      const TressChaLineId *id = &lines[order[i]];
      TressChaMaterial *m = &file->radeon->materials[id->material];
      guint count = 0, k;
      Op op = { OP_PATCH, id->material, A_LINES, 0, id->line, 0, 0, 0, 0, 0, NULL, NULL };

      /* A run of consecutive lines that differ from before, as one patch. */
      if (memcmp (&before[order[i]], &m->lines[id->line], sizeof (TressChaLine)) == 0)
        {
          i++;
          continue;
        }
      while (
          i + count < n && lines[order[i + count]].material == id->material
          && lines[order[i + count]].line == id->line + count
          && memcmp (&before[order[i + count]], &m->lines[id->line + count], sizeof (TressChaLine))
                 != 0)
        count++;
      op.count = count;
      op.len = sizeof (TressChaLine) * (gsize)count;
      op.data = ops.data->len;
      for (k = 0; k < count; k++)
        g_byte_array_append (ops.data, (const guint8 *)&before[order[i + k]],
                             sizeof (TressChaLine));
      g_byte_array_append (ops.data, (const guint8 *)&m->lines[id->line], op.len);
      g_array_append_val (ops.ops, op);
      recorded += count;
      i += count;
    }
  if (ops.ops->len == 0)
    {
      ops_clear (&ops);
      return 0;
    }
  cmd = tress_command_alloc (sizeof (ChaCommand), &cha_command_class, label, NULL);
  cmd->ops = ops;
  describe_change (cmd, file);
  /* The lines are already as the command leaves them: tell the views, then
   * record without applying. */
  if (file->change_func != NULL)
    file->change_func (file, &cmd->change, FALSE, file->change_data);
  if (history != NULL)
    tress_history_push (history, &cmd->parent);
  else
    tress_command_free (&cmd->parent);
  return recorded;
}

/* Checks line ids and returns their material pointers' validity. */
static gboolean
check_lines (const TressChaFile *file, const TressChaLineId *lines, guint n, GError **error)
{
  for (guint i = 0; i < n; i++)
    {
      TressChaMaterial *m = get_lines_material (file, lines[i].material, error);
      if (m == NULL)
        return FALSE;
      if (lines[i].line >= m->n_lines)
        return refuse (error, "line %u of material %u does not exist (it has %u)", lines[i].line,
                       lines[i].material, m->n_lines);
      for (guint j = 0; j < i && n < 4096; j++)
        if (lines[j].material == lines[i].material && lines[j].line == lines[i].line)
          return refuse (error, "line %u of material %u is listed twice", lines[i].line,
                         lines[i].material);
    }
  if (n >= 4096)
    {
      /* Large selections: check duplicates with a set. */
      g_autoptr (GHashTable) seen = g_hash_table_new (g_int64_hash, g_int64_equal);
      g_autofree gint64 *keys = g_new (gint64, n);
      for (guint i = 0; i < n; i++)
        {
          keys[i] = ((gint64)lines[i].material << 32) | lines[i].line;
          if (!g_hash_table_add (seen, &keys[i]))
            return refuse (error, "line %u of material %u is listed twice", lines[i].line,
                           lines[i].material);
        }
    }
  return TRUE;
}

/* Patches each listed line with @edit applied to a copy of it. */
typedef void (*LineEdit) (TressChaLine *line, gconstpointer data);

static gboolean
edit_lines (TressChaFile *file, TressHistory *history, const TressChaLineId *lines, guint n,
            LineEdit edit, gconstpointer data, const char *label, const char *merge_key,
            GError **error)
{
  Ops ops;

  tress_progress_phase (_ ("Checking lines"), n, TRESS_PROGRESS_ENTRIES);
  if (!check_lines (file, lines, n, error))
    return FALSE;
  tress_progress_phase (_ ("Editing lines"), n, TRESS_PROGRESS_ENTRIES);
  ops_init (&ops);
  for (guint i = 0; i < n; i++)
    {
      TressChaMaterial *m = &file->radeon->materials[lines[i].material];
      TressChaLine line = m->lines[lines[i].line];

      /* (a worker's progress, and its Cancel) */
      if ((i & 8191) == 8191 && !tress_progress_advance (8192, error))
        {
          ops_clear (&ops);
          return FALSE;
        }

      edit (&line, data);
      if (memcmp (&line, &m->lines[lines[i].line], sizeof line) != 0)
        ops_patch (&ops, file, lines[i].material, A_LINES, 0, lines[i].line, 1, &line);
    }
  return commit_keyed (file, history, &ops, label, merge_key);
}

/* ---- weights and references ------------------------------------------------ */

void
tress_cha_rebalance_weights (const guint8 old[3], guint k, guint8 value, guint8 out[3])
{
  guint a = k == 0 ? 1 : 0;
  guint b = k == 2 ? 1 : 2;
  guint rest = TRESS_CHA_WEIGHT_SUM - value;
  guint sum = old[a] + old[b];

  g_return_if_fail (k < 3);
  out[k] = value;
  if (sum == 0)
    out[a] = (guint8)(rest - rest / 2);
  else
    out[a] = (guint8)((rest * old[a] + sum / 2) / sum);
  out[b] = (guint8)(rest - out[a]);
}

typedef struct
{
  guint k;
  guint8 value;
} WeightArgs;

static void
edit_weight (TressChaLine *line, gconstpointer data)
{
  const WeightArgs *args = data;
  guint8 old[3] = { line->weights[2], line->weights[1], line->weights[0] };
  guint8 w[3];

  tress_cha_rebalance_weights (old, args->k, args->value, w);
  line->weights[2] = w[0];
  line->weights[1] = w[1];
  line->weights[0] = w[2];
}

gboolean
tress_cha_set_weight (TressChaFile *file, TressHistory *history, const TressChaLineId *lines,
                      guint n_lines, guint k, guint8 value, GError **error)
{
  static const char *const keys[] = { "cha:weight-1", "cha:weight-2", "cha:weight-3" };
  WeightArgs args = { k, value };
  g_autofree char *label = NULL;

  if (k > 2)
    return refuse (error, "a line has references 0, 1 and 2, not %u", k);
  /* Translators: "Set weight 1 of 6 lines": the reference as the editor counts them, from 1. */
  label = g_strdup_printf (
      ngettext ("Set weight %u of %u line", "Set weight %u of %u lines", n_lines), k + 1, n_lines);
  /* Steps of one spin button merge (one field); another reference is a new step. */
  return edit_lines (file, history, lines, n_lines, edit_weight, &args, label, keys[k], error);
}

static void
edit_weights (TressChaLine *line, gconstpointer data)
{
  const guint8 *w = data;

  line->weights[2] = w[0];
  line->weights[1] = w[1];
  line->weights[0] = w[2];
}

gboolean
tress_cha_set_weights (TressChaFile *file, TressHistory *history, const TressChaLineId *lines,
                       guint n_lines, const guint8 w[3], GError **error)
{
  g_autofree char *label = NULL;

  if (w[0] + w[1] + w[2] != TRESS_CHA_WEIGHT_SUM)
    return refuse (error, "the weights %u + %u + %u sum to %u, they must sum to 255", w[0], w[1],
                   w[2], w[0] + w[1] + w[2]);
  label = g_strdup_printf (ngettext ("Set weights of %u line", "Set weights of %u lines", n_lines),
                           n_lines);
  /* One step per call: the triangle calls once per drag. */
  return edit_lines (file, history, lines, n_lines, edit_weights, w, label, NULL, error);
}

static void
edit_refs (TressChaLine *line, gconstpointer data)
{
  const guint16 *refs = data;

  memcpy (line->refs, refs, sizeof line->refs);
}

typedef struct
{
  guint k;
  guint16 ref;
} RefArgs;

static void
edit_ref (TressChaLine *line, gconstpointer data)
{
  const RefArgs *args = data;

  line->refs[args->k] = args->ref;
}

gboolean
tress_cha_set_ribbon_ref (TressChaFile *file, TressHistory *history, TressChaRibbonId ribbon,
                          guint k, guint entry, GError **error)
{
  TressChaMaterial *m = get_ribbon (file, ribbon, error);
  RefArgs args = { k, 0 };
  guint first, n;
  g_autofree TressChaLineId *ids = NULL;
  g_autofree char *label = NULL;

  if (m == NULL)
    return FALSE;
  if (k > 2)
    return refuse (error, "a line has references 0, 1 and 2, not %u", k);
  if (!tress_cha_material_ribbon_lines (m, ribbon.ribbon, &first, &n))
    return refuse (error, "the lines of ribbon %u lie outside the line array", ribbon.ribbon);
  if (entry >= m->n_applied)
    return refuse (error, "applied-list entry %u does not exist (the material lists %u)", entry,
                   m->n_applied);
  if (entry > G_MAXUINT16 / 3)
    return refuse (error, "applied-list entry %u cannot be referenced in 16 bits", entry);
  args.ref = (guint16)(3 * entry);
  ids = g_new (TressChaLineId, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    ids[i] = (TressChaLineId){ ribbon.material, first + i };
  /* Translators: "Set body part 2 of ribbon 17" */
  label = g_strdup_printf (_ ("Set body part %u of ribbon %u"), k + 1, ribbon.ribbon);
  return edit_lines (file, history, ids, n, edit_ref, &args, label, NULL, error);
}

gboolean
tress_cha_set_ribbon_refs (TressChaFile *file, TressHistory *history, TressChaRibbonId ribbon,
                           const guint entries[3], GError **error)
{
  TressChaMaterial *m = get_ribbon (file, ribbon, error);
  guint16 refs[3];
  guint first, n;
  g_autofree TressChaLineId *ids = NULL;
  g_autofree char *label = NULL;

  if (m == NULL)
    return FALSE;
  if (!tress_cha_material_ribbon_lines (m, ribbon.ribbon, &first, &n))
    return refuse (error, "the lines of ribbon %u lie outside the line array", ribbon.ribbon);
  for (guint k = 0; k < 3; k++)
    {
      if (entries[k] >= m->n_applied)
        return refuse (error, "applied-list entry %u does not exist (the material lists %u)",
                       entries[k], m->n_applied);
      if (entries[k] > G_MAXUINT16 / 3)
        return refuse (error, "applied-list entry %u cannot be referenced in 16 bits", entries[k]);
      refs[k] = (guint16)(3 * entries[k]);
    }
  ids = g_new (TressChaLineId, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    ids[i] = (TressChaLineId){ ribbon.material, first + i };
  label = g_strdup_printf (_ ("Set body parts of ribbon %u"), ribbon.ribbon);
  return edit_lines (file, history, ids, n, edit_refs, refs, label, NULL, error);
}

/* ---- retarget ------------------------------------------------------------- */

static gboolean
retarget_plan (TressChaFile *file, const TressChaScope *scope, guint32 from, guint32 to, Ops *ops,
               guint *n_lines_out, guint *n_ribbons_out, GError **error)
{
  const TressChaRadeon *rad = file->radeon;
  guint first_m, last_m;
  guint n_lines = 0, n_ribbons = 0;

  if (rad == NULL)
    return refuse (error, "the file has no radeon section");
  /* Refused before anything is counted or planned: a body part the model
   * does not have is no target, whatever the scope. */
  if (to >= rad->body_part_max)
    return refuse_body_part (error, to, rad->body_part_max);
  if (scope->material >= 0)
    {
      if ((guint)scope->material >= rad->n_materials)
        return refuse (error, "material %d does not exist (the file has %u)", scope->material,
                       rad->n_materials);
      first_m = last_m = (guint)scope->material;
    }
  else
    {
      if (scope->ribbons != NULL)
        return refuse (error, "a list of ribbons needs a material");
      first_m = 0;
      last_m = rad->n_materials == 0 ? 0 : rad->n_materials - 1;
      if (rad->n_materials == 0)
        first_m = 1;
    }
  {
    guint64 total = 0;

    for (guint mi = first_m; mi <= last_m && mi < rad->n_materials; mi++)
      total += scope->ribbons != NULL ? scope->n_ribbons : rad->materials[mi].n_ribbons;
    tress_progress_phase (_ ("Retargeting"), total, TRESS_PROGRESS_ENTRIES);
  }
  for (guint mi = first_m; mi <= last_m && mi < rad->n_materials; mi++)
    {
      TressChaMaterial *m = &rad->materials[mi];
      int ai = tress_cha_material_find_applied (m, from);
      int bi = tress_cha_material_find_applied (m, to);
      guint n_sel = scope->ribbons != NULL ? scope->n_ribbons : m->n_ribbons;
      gboolean appended = FALSE;
      guint16 new_ref;
      guint ops_start = ops != NULL ? ops->ops->len : 0;

      if (m->lines == NULL)
        return refuse (error, "the lines of material %u are not decoded (LINE_SIZE %u)", mi,
                       m->line_size);
      /* A reference is three times the entry's index, in 16 bits. */
      if ((bi >= 0 ? (guint)bi : m->n_applied) > G_MAXUINT16 / 3)
        return refuse (error,
                       "body part %u would be entry %u of material %u's applied list, too far "
                       "down for a line to reference it (at most entry %u)",
                       to, bi >= 0 ? (guint)bi : m->n_applied, mi, G_MAXUINT16 / 3);
      new_ref = (guint16)(3 * (bi >= 0 ? (guint)bi : m->n_applied));
      for (guint i = 0; i < n_sel; i++)
        {
          guint r = scope->ribbons != NULL ? scope->ribbons[i] : i;
          gboolean touched = FALSE;
          guint first, n;

          /* (a worker's progress, and its Cancel) */
          if ((i & 4095) == 4095 && !tress_progress_advance (4096, error))
            return FALSE;

          if (r >= m->n_ribbons)
            return refuse (error, "ribbon %u of material %u does not exist (it has %u)", r, mi,
                           m->n_ribbons);
          if (from == to)
            continue;
          if (ai >= 0 && tress_cha_material_ribbon_lines (m, r, &first, &n))
            for (guint k = 0; k < n; k++)
              {
                TressChaLine line = m->lines[first + k];
                gboolean changed = FALSE;

                /* Every entry naming the old body part: a list may hold it twice. */
                for (guint j = 0; j < 3; j++)
                  if (line.refs[j] % 3 == 0 && line.refs[j] / 3 < m->n_applied
                      && m->applied[line.refs[j] / 3] == from)
                    {
                      line.refs[j] = new_ref;
                      changed = TRUE;
                    }
                if (changed)
                  {
                    n_lines++;
                    touched = TRUE;
                    if (ops != NULL)
                      ops_patch (ops, file, mi, A_LINES, 0, first + k, 1, &line);
                  }
              }
          if (m->attach[r] == from)
            {
              touched = TRUE;
              if (ops != NULL)
                ops_patch (ops, file, mi, A_ATTACH, 0, r, 1, &to);
            }
          if (touched)
            {
              n_ribbons++;
              if (bi < 0)
                appended = TRUE;
            }
        }
      if (appended && ops != NULL)
        {
          /* The applied list grows first, so the new references are valid at once. */
          g_autofree guint32 *list = g_new (guint32, m->n_applied + 1);
          Op op;

          memcpy (list, m->applied, 4 * (gsize)m->n_applied);
          list[m->n_applied] = to;
          ops_applied (ops, m, mi, list, m->n_applied + 1);
          op = g_array_index (ops->ops, Op, ops->ops->len - 1);
          g_array_remove_index (ops->ops, ops->ops->len - 1);
          g_array_insert_val (ops->ops, ops_start, op);
        }
    }
  if (n_lines_out)
    *n_lines_out = n_lines;
  if (n_ribbons_out)
    *n_ribbons_out = n_ribbons;
  return TRUE;
}

gboolean
tress_cha_retarget_count (const TressChaFile *file, const TressChaScope *scope, guint32 from,
                          guint32 to, guint *n_lines, guint *n_ribbons, GError **error)
{
  return retarget_plan ((TressChaFile *)file, scope, from, to, NULL, n_lines, n_ribbons, error);
}

gboolean
tress_cha_retarget (TressChaFile *file, TressHistory *history, const TressChaScope *scope,
                    guint32 from, guint32 to, GError **error)
{
  Ops ops;
  guint n_lines = 0, n_ribbons = 0;
  g_autofree char *label = NULL;

  ops_init (&ops);
  if (!retarget_plan (file, scope, from, to, &ops, &n_lines, &n_ribbons, error))
    {
      ops_clear (&ops);
      return FALSE;
    }
  if (n_lines == 0)
    label = g_strdup_printf (ngettext ("Retarget %u ribbon from %u to %u",
                                       "Retarget %u ribbons from %u to %u", n_ribbons),
                             n_ribbons, from, to);
  else
    label = g_strdup_printf (
        ngettext ("Retarget %u line from %u to %u", "Retarget %u lines from %u to %u", n_lines),
        n_lines, from, to);
  return commit (file, history, &ops, label);
}

/* ---- line bytes and directions -------------------------------------------- */

typedef struct
{
  TressChaLineByte which;
  guint8 value;
} ByteArgs;

static void
edit_byte (TressChaLine *line, gconstpointer data)
{
  const ByteArgs *args = data;

  switch (args->which)
    {
    case TRESS_CHA_BYTE_AMBIENT:
      line->ambient = line->ambient_copy = args->value;
      break;
    case TRESS_CHA_BYTE_COLOUR_1:
      line->colour[0] = args->value;
      break;
    case TRESS_CHA_BYTE_COLOUR_2:
      line->colour[1] = args->value;
      break;
    default:
      break;
    }
}

gboolean
tress_cha_set_line_byte (TressChaFile *file, TressHistory *history, const TressChaLineId *lines,
                         guint n_lines, TressChaLineByte which, guint8 value, GError **error)
{
  static const char *const keys[] = { "ambient", "colour byte 13", "colour byte 14" };
  ByteArgs args = { which, value };
  g_autofree char *label = NULL;

  if ((guint)which > TRESS_CHA_BYTE_COLOUR_2)
    return refuse (error, "unknown line byte %d", which);
  switch (which)
    {
    case TRESS_CHA_BYTE_AMBIENT:
      label = g_strdup_printf (
          ngettext ("Set ambient of %u line", "Set ambient of %u lines", n_lines), n_lines);
      break;
    case TRESS_CHA_BYTE_COLOUR_1:
      label = g_strdup_printf (
          ngettext ("Set colour byte 13 of %u line", "Set colour byte 13 of %u lines", n_lines),
          n_lines);
      break;
    case TRESS_CHA_BYTE_COLOUR_2:
    default:
      label = g_strdup_printf (
          ngettext ("Set colour byte 14 of %u line", "Set colour byte 14 of %u lines", n_lines),
          n_lines);
      break;
    }
  return edit_lines (file, history, lines, n_lines, edit_byte, &args, label, keys[which], error);
}

static void
edit_section (TressChaLine *line, gconstpointer data)
{
  guint section = *(const guint *)data;

  memset (line->mask, 0, sizeof line->mask);
  line->mask[tress_cha_mask_byte (section)] = 255;
}

gboolean
tress_cha_set_line_section (TressChaFile *file, TressHistory *history, const TressChaLineId *lines,
                            guint n_lines, guint section, GError **error)
{
  g_autofree char *label = NULL;

  if (section < 1 || section > TRESS_CHA_MAX_SECTIONS)
    return refuse (error, "sections are numbered 1 to 7, not %u", section);
  label = g_strdup_printf (
      ngettext ("Set section mask of %u line", "Set section mask of %u lines", n_lines), n_lines);
  return edit_lines (file, history, lines, n_lines, edit_section, &section, label, NULL, error);
}

static void
edit_direction (TressChaLine *line, gconstpointer data)
{
  memcpy (line->direction, data, sizeof line->direction);
}

gboolean
tress_cha_set_line_direction (TressChaFile *file, TressHistory *history,
                              const TressChaLineId *lines, guint n_lines, const float direction[3],
                              GError **error)
{
  g_autofree char *label = NULL;

  if (!all_finite (direction, 3))
    return refuse (error, "a direction must be a finite vector");
  label = g_strdup_printf (
      ngettext ("Set direction of %u line", "Set direction of %u lines", n_lines), n_lines);
  return edit_lines (file, history, lines, n_lines, edit_direction, direction, label,
                     "cha:direction", error);
}

typedef struct
{
  guint component;
  float value;
} DirectionArgs;

static void
edit_direction_component (TressChaLine *line, gconstpointer data)
{
  const DirectionArgs *args = data;

  line->direction[args->component] = args->value;
}

gboolean
tress_cha_set_line_direction_component (TressChaFile *file, TressHistory *history,
                                        const TressChaLineId *lines, guint n_lines, guint component,
                                        float value, GError **error)
{
  static const char *const keys[] = { "cha:direction-x", "cha:direction-y", "cha:direction-z" };
  static const char *const names[] = { "x", "y", "z" };
  DirectionArgs args = { component, value };
  g_autofree char *label = NULL;

  if (component > 2)
    return refuse (error, "a direction has components x, y and z (0 to 2), not %u", component);
  if (!isfinite (value))
    return refuse (error, "a direction must be a finite vector");
  /* Translators: "Set direction x of 6 lines" */
  label = g_strdup_printf (
      ngettext ("Set direction %s of %u line", "Set direction %s of %u lines", n_lines),
      names[component], n_lines);
  return edit_lines (file, history, lines, n_lines, edit_direction_component, &args, label,
                     keys[component], error);
}

/* ---- per-ribbon values ---------------------------------------------------- */

gboolean
tress_cha_set_attachment (TressChaFile *file, TressHistory *history, TressChaRibbonId ribbon,
                          guint32 body_part, GError **error)
{
  TressChaMaterial *m = get_ribbon (file, ribbon, error);
  g_autofree char *label = NULL;
  Ops ops;

  if (m == NULL)
    return FALSE;
  if (body_part >= file->radeon->body_part_max)
    return refuse_body_part (error, body_part, file->radeon->body_part_max);
  if (m->attach[ribbon.ribbon] == body_part)
    return TRUE;
  ops_init (&ops);
  if (tress_cha_material_find_applied (m, body_part) < 0)
    {
      g_autofree guint32 *list = g_new (guint32, m->n_applied + 1);
      memcpy (list, m->applied, 4 * (gsize)m->n_applied);
      list[m->n_applied] = body_part;
      ops_applied (&ops, m, ribbon.material, list, m->n_applied + 1);
    }
  ops_patch (&ops, file, ribbon.material, A_ATTACH, 0, ribbon.ribbon, 1, &body_part);
  label = g_strdup_printf (_ ("Attach ribbon %u to body part %u"), ribbon.ribbon, body_part);
  return commit (file, history, &ops, label);
}

gboolean
tress_cha_set_quality (TressChaFile *file, TressHistory *history, const TressChaRibbonId *ribbons,
                       guint n_ribbons, guint32 quality, GError **error)
{
  g_autofree char *label = NULL;
  g_autoptr (GHashTable) seen = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autofree gint64 *keys = g_new (gint64, MAX (n_ribbons, 1));
  Ops ops;

  if (quality > 2)
    return refuse (error, "texture quality is 0, 1 or 2, not %u", quality);
  for (guint i = 0; i < n_ribbons; i++)
    {
      if (get_ribbon (file, ribbons[i], error) == NULL)
        return FALSE;
      keys[i] = ((gint64)ribbons[i].material << 32) | ribbons[i].ribbon;
      if (!g_hash_table_add (seen, &keys[i]))
        return refuse (error, "ribbon %u of material %u is listed twice", ribbons[i].ribbon,
                       ribbons[i].material);
    }
  ops_init (&ops);
  for (guint i = 0; i < n_ribbons; i++)
    if (file->radeon->materials[ribbons[i].material].quality[ribbons[i].ribbon] != quality)
      ops_patch (&ops, file, ribbons[i].material, A_QUALITY, 0, ribbons[i].ribbon, 1, &quality);
  label = g_strdup_printf (
      ngettext ("Set quality of %u ribbon", "Set quality of %u ribbons", n_ribbons), n_ribbons);
  return commit (file, history, &ops, label);
}

gboolean
tress_cha_set_base_points (TressChaFile *file, TressHistory *history, TressChaRibbonId ribbon,
                           const float points[6], GError **error)
{
  TressChaMaterial *m = get_ribbon (file, ribbon, error);
  g_autofree char *label = NULL;
  Ops ops;

  if (m == NULL)
    return FALSE;
  if (!all_finite (points, 6))
    return refuse (error, "base points must be finite");
  ops_init (&ops);
  if (memcmp (&m->zsort[3 * (gsize)ribbon.ribbon], &m->base_points[6 * (gsize)ribbon.ribbon], 12)
      == 0)
    ops_patch (&ops, file, ribbon.material, A_ZSORT, 0, ribbon.ribbon, 1, points);
  ops_patch (&ops, file, ribbon.material, A_BASE, 0, ribbon.ribbon, 1, points);
  label = g_strdup_printf (_ ("Move ribbon %u"), ribbon.ribbon);
  return commit_keyed (file, history, &ops, label, "cha:base-points");
}

gboolean
tress_cha_set_morph_points (TressChaFile *file, TressHistory *history, TressChaRibbonId ribbon,
                            guint morph, const float displacement[6], GError **error)
{
  TressChaMaterial *m = get_ribbon (file, ribbon, error);
  g_autofree char *label = NULL;
  g_autofree char *name = NULL;
  Ops ops;

  if (m == NULL)
    return FALSE;
  if (morph >= file->radeon->n_morphs)
    return refuse (error, "morph %u does not exist (the file has %u)", morph,
                   file->radeon->n_morphs);
  if (!all_finite (displacement, 6))
    return refuse (error, "morph displacements must be finite");
  ops_init (&ops);
  ops_patch (&ops, file, ribbon.material, A_MORPH, morph, ribbon.ribbon, 1, displacement);
  name = g_strndup ((const char *)file->radeon->morph_names[morph], TRESS_CHA_NAME_SIZE);
  label = g_strdup_printf (_ ("Set %s displacement of ribbon %u"), name, ribbon.ribbon);
  return commit_keyed (file, history, &ops, label, "cha:morph-points");
}

gboolean
tress_cha_set_length (TressChaFile *file, TressHistory *history, TressChaRibbonId ribbon,
                      guint morality, float length, gboolean *clamped, GError **error)
{
  TressChaMaterial *m = get_ribbon (file, ribbon, error);
  g_autofree char *label = NULL;
  float max;
  Ops ops;

  if (clamped)
    *clamped = FALSE;
  if (m == NULL)
    return FALSE;
  if (morality > file->radeon->n_moralities)
    return refuse (error, "morality %u does not exist (the file has %u and the base length)",
                   morality, file->radeon->n_moralities);
  if (!isfinite (length) || length < 0.0f)
    return refuse (error, "a length must be a finite number ≥ 0");
  max = tress_cha_max_length (m->n_sections[ribbon.ribbon]);
  if (length > max)
    {
      length = max;
      if (clamped)
        *clamped = TRUE;
    }
  ops_init (&ops);
  ops_patch (&ops, file, ribbon.material, A_LENGTHS, morality, ribbon.ribbon, 1, &length);
  label = g_strdup_printf (_ ("Set length of ribbon %u"), ribbon.ribbon);
  return commit_keyed (file, history, &ops, label, "cha:length");
}

gboolean
tress_cha_set_zsort (TressChaFile *file, TressHistory *history, TressChaRibbonId ribbon,
                     const float point[3], GError **error)
{
  TressChaMaterial *m = get_ribbon (file, ribbon, error);
  g_autofree char *label = NULL;
  Ops ops;

  if (m == NULL)
    return FALSE;
  if (!all_finite (point, 3))
    return refuse (error, "a z-sort point must be finite");
  ops_init (&ops);
  ops_patch (&ops, file, ribbon.material, A_ZSORT, 0, ribbon.ribbon, 1, point);
  label = g_strdup_printf (_ ("Set z-sort point of ribbon %u"), ribbon.ribbon);
  return commit_keyed (file, history, &ops, label, "cha:zsort");
}

gboolean
tress_cha_set_uv (TressChaFile *file, TressHistory *history, guint material, guint first, guint n,
                  const float *values, GError **error)
{
  TressChaMaterial *m = get_material (file, material, error);
  Ops ops;

  if (m == NULL)
    return FALSE;
  if (first > m->n_uv_floats || n > m->n_uv_floats - first)
    return refuse (error, "UV values %u to %u lie outside the table of %u", first, first + n,
                   m->n_uv_floats);
  for (guint i = 0; i < n; i++)
    if (!(values[i] >= 0.0f && values[i] <= 1.0f))
      return refuse (error, "UV coordinates lie in 0…1, not %g", (double)values[i]);
  ops_init (&ops);
  if (n > 0)
    ops_patch (&ops, file, material, A_UV, 0, first, n, values);
  /* One step per call: the UV map calls once per drag. */
  return commit_keyed (file, history, &ops, _ ("Edit UV points"), NULL);
}

/* ---- structure ------------------------------------------------------------ */

static TressChaMaterial *
get_sound_ribbon (TressChaFile *file, TressChaRibbonId ribbon, GError **error)
{
  TressChaMaterial *m = get_ribbon (file, ribbon, error);

  if (m == NULL || !material_sound (m, ribbon.material, error))
    return NULL;
  return m;
}

gboolean
tress_cha_duplicate_ribbon (TressChaFile *file, TressHistory *history, TressChaRibbonId ribbon,
                            GError **error)
{
  TressChaMaterial *m = get_sound_ribbon (file, ribbon, error);
  g_autofree char *label = NULL;
  Ops ops;

  if (m == NULL)
    return FALSE;
  if (m->n_ribbons >= G_MAXUINT32 - 1
      || (guint64)m->n_lines + m->n_ribbon_lines[ribbon.ribbon] > G_MAXUINT32 / TRESS_CHA_LINE_SIZE)
    return refuse (error, "material %u cannot hold more ribbons", ribbon.material);
  ops_init (&ops);
  ops_ribbon (&ops, ribbon.material, ribbon.ribbon + 1, NULL, blob_get (file, m, ribbon.ribbon));
  label = g_strdup_printf (_ ("Duplicate ribbon %u"), ribbon.ribbon);
  return commit (file, history, &ops, label);
}

gboolean
tress_cha_delete_ribbon (TressChaFile *file, TressHistory *history, TressChaRibbonId ribbon,
                         GError **error)
{
  TressChaMaterial *m = get_sound_ribbon (file, ribbon, error);
  g_autofree char *label = NULL;
  Ops ops;

  if (m == NULL)
    return FALSE;
  ops_init (&ops);
  ops_ribbon (&ops, ribbon.material, ribbon.ribbon, blob_get (file, m, ribbon.ribbon), NULL);
  label = g_strdup_printf (_ ("Delete ribbon %u"), ribbon.ribbon);
  return commit (file, history, &ops, label);
}

gboolean
tress_cha_add_section (TressChaFile *file, TressHistory *history, TressChaRibbonId ribbon,
                       GError **error)
{
  TressChaMaterial *m = get_sound_ribbon (file, ribbon, error);
  g_autofree char *label = NULL;
  RibbonBlob *before, *after;
  guint32 s;
  Ops ops;

  if (m == NULL)
    return FALSE;
  s = m->n_sections[ribbon.ribbon];
  if (s < 1 || s >= TRESS_CHA_MAX_SECTIONS || m->n_ribbon_lines[ribbon.ribbon] != 2 * s)
    return refuse (error,
                   "ribbon %u has %u sections and %u lines; a section can be added to a "
                   "ribbon of 1 to 6 sections with 2 lines each",
                   ribbon.ribbon, s, m->n_ribbon_lines[ribbon.ribbon]);
  if ((guint64)m->n_lines + 2 > G_MAXUINT32 / TRESS_CHA_LINE_SIZE)
    return refuse (error, "material %u cannot hold more lines", ribbon.material);
  before = blob_get (file, m, ribbon.ribbon);
  after = blob_copy (file, before);
  after->lines = g_realloc (after->lines, (after->n_lines + 2) * sizeof (TressChaLine));
  for (guint k = 0; k < 2; k++)
    {
      TressChaLine *line = &after->lines[after->n_lines + k];
      *line = after->lines[after->n_lines - 2 + k];
      memset (line->mask, 0, sizeof line->mask);
      line->mask[tress_cha_mask_byte (s + 1)] = 255;
      line->ambient = line->ambient_copy = tress_cha_ambient_step (s + 1);
    }
  after->n_lines += 2;
  after->n_sections = s + 1;
  ops_init (&ops);
  ops_ribbon (&ops, ribbon.material, ribbon.ribbon, before, after);
  label = g_strdup_printf (_ ("Add a section to ribbon %u"), ribbon.ribbon);
  return commit (file, history, &ops, label);
}

gboolean
tress_cha_remove_section (TressChaFile *file, TressHistory *history, TressChaRibbonId ribbon,
                          GError **error)
{
  TressChaMaterial *m = get_sound_ribbon (file, ribbon, error);
  g_autofree char *label = NULL;
  RibbonBlob *before, *after;
  guint32 s;
  float max;
  Ops ops;

  if (m == NULL)
    return FALSE;
  s = m->n_sections[ribbon.ribbon];
  if (s < 2 || s > TRESS_CHA_MAX_SECTIONS || m->n_ribbon_lines[ribbon.ribbon] != 2 * s)
    return refuse (error,
                   "ribbon %u has %u sections and %u lines; a section can be removed "
                   "from a ribbon of 2 to 7 sections with 2 lines each",
                   ribbon.ribbon, s, m->n_ribbon_lines[ribbon.ribbon]);
  before = blob_get (file, m, ribbon.ribbon);
  after = blob_copy (file, before);
  after->n_lines -= 2;
  after->n_sections = s - 1;
  max = tress_cha_max_length (s - 1);
  for (guint32 k = 0; k <= file->radeon->n_moralities; k++)
    if (after->lengths[k] > max)
      after->lengths[k] = max;
  ops_init (&ops);
  ops_ribbon (&ops, ribbon.material, ribbon.ribbon, before, after);
  label = g_strdup_printf (_ ("Remove a section from ribbon %u"), ribbon.ribbon);
  return commit (file, history, &ops, label);
}

/* ---- fixes ---------------------------------------------------------------- */

static void
fix_weights (guint8 bytes[3])
{
  guint sum = bytes[0] + bytes[1] + bytes[2];
  guint floor_sum = 0;
  guint rem[3];
  guint8 out[3];

  if (sum == TRESS_CHA_WEIGHT_SUM)
    return;
  if (sum == 0)
    {
      /* Follow reference 0 only (byte 26). */
      bytes[0] = bytes[1] = 0;
      bytes[2] = TRESS_CHA_WEIGHT_SUM;
      return;
    }
  for (guint i = 0; i < 3; i++)
    {
      guint scaled = bytes[i] * TRESS_CHA_WEIGHT_SUM;
      out[i] = (guint8)(scaled / sum);
      rem[i] = scaled % sum;
      floor_sum += out[i];
    }
  /* Largest remainders get the missing units (ties: reference 0 first = byte 26). */
  while (floor_sum < TRESS_CHA_WEIGHT_SUM)
    {
      guint best = 2;
      for (guint i = 3; i-- > 0;)
        if (rem[i] > rem[best])
          best = i;
      out[best]++;
      rem[best] = 0;
      floor_sum++;
    }
  memcpy (bytes, out, 3);
}

/* Where a fix applies: everywhere (no scope), one material's problems, or the
 * one field at a byte offset, as validate reports it (the offset of the field
 * a problem names, in the bytes the current model serializes to). */
typedef struct
{
  ChaLayout layout;
  int material; /* −1: every material */
  gsize offset; /* G_MAXSIZE: every offset of the material(s) */
} Scope;

static gboolean
scope_has (const Scope *scope, int mi, gsize offset)
{
  if (scope->offset != G_MAXSIZE)
    return offset == scope->offset;
  return scope->material < 0 || scope->material == mi;
}

static guint
plan_fixes (TressChaFile *file, guint fixes, const Scope *scope, Ops *ops)
{
  TressChaRadeon *rad = file->radeon;
  const ChaMaterialLayout *L = NULL;
  guint n = 0;

#define WANT(f) (fixes & (1u << (f)))
  /* Whether the fix of the field at @off (of material @mi) is wanted; the
   * offset is only computed where the scope names one. */
#define IN(mi, off)                                                                                \
  (scope == NULL || scope_has (scope, (int)(mi), scope->offset != G_MAXSIZE ? (gsize)(off) : 0))
  if (WANT (TRESS_CHA_FIX_COUNTS))
    {
      guint before = ops->ops->len;
      if (IN (-1, 0x28))
        ops_scalar (ops, file, 0, S_HEADER_FOUR, CHA_HEADER_FOUR);
      if (IN (-1, 0x2c))
        ops_scalar (ops, file, 0, S_VERSION, CHA_VERSION);
      if (rad != NULL && IN (-1, scope->layout.always_three))
        ops_scalar (ops, file, 0, S_THREE, 3);
      n += ops->ops->len - before;
    }
  if (rad == NULL)
    return n;
  for (guint mi = 0; mi < rad->n_materials; mi++)
    {
      TressChaMaterial *m = &rad->materials[mi];
      g_autofree guint32 *first_line = g_new (guint32, MAX (m->n_ribbons, 1));
      guint64 running = 0;
      gboolean first_ok = TRUE;
      /* First lines are recomputed only from line counts that add up to
       * LINE_COUNT (else the counts may be what is damaged). */
      gboolean recompute
          = WANT (TRESS_CHA_FIX_FIRST_LINES) && tress_cha_material_line_counts_fit (m);

      L = scope != NULL ? &scope->layout.materials[mi] : NULL;

      if (WANT (TRESS_CHA_FIX_COUNTS))
        {
          guint before = ops->ops->len;
          if (IN (mi, L->always_one))
            ops_scalar (ops, file, mi, S_ONE, 1);
          if ((guint64)m->line_size * m->n_lines <= G_MAXUINT32 && IN (mi, L->line_array_size))
            ops_scalar (ops, file, mi, S_LINE_ARRAY_SIZE, m->line_size * m->n_lines);
          if (IN (mi, L->morphs_plus_one))
            ops_scalar (ops, file, mi, S_MORPHS_PLUS_ONE, rad->n_morphs + 1);
          if (IN (mi, L->n_ribbons_again))
            ops_scalar (ops, file, mi, S_RIBBONS_AGAIN, m->n_ribbons);
          if (IN (mi, L->moralities_plus_one))
            ops_scalar (ops, file, mi, S_MORALITIES_PLUS_ONE, rad->n_moralities + 1);
          if (IN (mi, L->n_ribbons_third))
            ops_scalar (ops, file, mi, S_RIBBONS_THIRD, m->n_ribbons);
          if (IN (mi, L->n_lines_again))
            ops_scalar (ops, file, mi, S_LINES_AGAIN, m->n_lines);
          n += ops->ops->len - before;
        }
      if (WANT (TRESS_CHA_FIX_ATTACH))
        {
          g_autoptr (GArray) list = g_array_new (FALSE, FALSE, 4);
          g_array_append_vals (list, m->applied, m->n_applied);
          for (guint32 r = 0; r < m->n_ribbons; r++)
            {
              guint32 bp = m->attach[r];
              gboolean found = FALSE;
              if (bp >= rad->body_part_max || !IN (mi, L->attach + 4 * (gsize)r))
                continue;
              for (guint i = 0; i < list->len && !found; i++)
                found = g_array_index (list, guint32, i) == bp;
              if (!found && list->len < G_MAXUINT16 / 3)
                {
                  g_array_append_val (list, bp);
                  n++;
                }
            }
          if (list->len != m->n_applied)
            ops_applied (ops, m, mi, (const guint32 *)list->data, list->len);
        }

      /* First lines as they will be after this plan. */
      for (guint32 r = 0; r < m->n_ribbons; r++)
        {
          first_line[r]
              = recompute && running <= G_MAXUINT32 && IN (mi, L->first_line + 4 * (gsize)r)
                    ? (guint32)running
                    : m->first_line[r];
          if (first_line[r] != m->first_line[r])
            first_ok = FALSE;
          running += m->n_ribbon_lines[r];
        }
      if (!first_ok)
        {
          for (guint32 r = 0; r < m->n_ribbons; r++)
            n += first_line[r] != m->first_line[r];
          ops_patch (ops, file, mi, A_FIRST_LINE, 0, 0, m->n_ribbons, first_line);
        }

      if (m->lines != NULL
          && (WANT (TRESS_CHA_FIX_WEIGHTS) || WANT (TRESS_CHA_FIX_AMBIENT_COPY)
              || WANT (TRESS_CHA_FIX_MASKS)))
        {
          g_autofree guint8 *expected = NULL;

          /* The section each line should carry (0: leave its mask alone). */
          if (WANT (TRESS_CHA_FIX_MASKS))
            {
              expected = g_malloc0 (MAX (m->n_lines, 1));
              for (guint32 r = 0; r < m->n_ribbons; r++)
                {
                  guint32 first = first_line[r], nl = m->n_ribbon_lines[r];
                  if (first > m->n_lines || nl > m->n_lines - first)
                    continue;
                  for (guint32 k = 0; k < nl && k / 2 < TRESS_CHA_MAX_SECTIONS; k++)
                    expected[first + k] = (guint8)(k / 2 + 1);
                }
            }
          for (guint32 i = 0; i < m->n_lines; i++)
            {
              TressChaLine line = m->lines[i];
              gsize off = L != NULL ? L->lines + (gsize)i * TRESS_CHA_LINE_SIZE : 0;

              if (WANT (TRESS_CHA_FIX_WEIGHTS)
                  && line.weights[0] + line.weights[1] + line.weights[2] != TRESS_CHA_WEIGHT_SUM
                  && IN (mi, off + 24))
                {
                  fix_weights (line.weights);
                  n++;
                }
              if (WANT (TRESS_CHA_FIX_AMBIENT_COPY) && line.ambient_copy != line.ambient
                  && IN (mi, off + 15))
                {
                  line.ambient_copy = line.ambient;
                  n++;
                }
              if (expected != NULL && expected[i] != 0
                  && tress_cha_line_section (&line) != expected[i] && IN (mi, off + 28))
                {
                  memset (line.mask, 0, sizeof line.mask);
                  line.mask[tress_cha_mask_byte (expected[i])] = 255;
                  n++;
                }
              if (memcmp (&line, &m->lines[i], sizeof line) != 0)
                ops_patch (ops, file, mi, A_LINES, 0, i, 1, &line);
            }
        }
      for (guint32 r = 0; r < m->n_ribbons; r++)
        {
          if (WANT (TRESS_CHA_FIX_QUALITY) && m->quality[r] > 2
              && IN (mi, L->quality + 4 * (gsize)r))
            {
              guint32 q = 2;
              ops_patch (ops, file, mi, A_QUALITY, 0, r, 1, &q);
              n++;
            }
          if (WANT (TRESS_CHA_FIX_LENGTHS))
            for (guint32 k = 0; k <= rad->n_moralities; k++)
              {
                float max = tress_cha_max_length (m->n_sections[r]);
                if (isfinite (m->lengths[k][r]) && m->lengths[k][r] > max
                    && IN (mi, L->lengths + 4 * ((gsize)k * m->n_ribbons + r)))
                  {
                    ops_patch (ops, file, mi, A_LENGTHS, k, r, 1, &max);
                    n++;
                  }
              }
          if (WANT (TRESS_CHA_FIX_ZSORT)
              && memcmp (&m->zsort[3 * (gsize)r], &m->base_points[6 * (gsize)r], 12) != 0
              && IN (mi, L->zsort + 12 * (gsize)r))
            {
              ops_patch (ops, file, mi, A_ZSORT, 0, r, 1, &m->base_points[6 * (gsize)r]);
              n++;
            }
        }
      if (WANT (TRESS_CHA_FIX_UV))
        for (guint32 i = 0; i < m->n_uv_floats; i++)
          if (!(m->uv[i] >= 0.0f && m->uv[i] <= 1.0f) && IN (mi, L->uv + 4 * (gsize)i))
            {
              float v = m->uv[i] > 1.0f ? 1.0f : 0.0f;
              ops_patch (ops, file, mi, A_UV, 0, i, 1, &v);
              n++;
            }
    }
#undef IN
#undef WANT
  return n;
}

static const char *const fix_labels[] = {
  N_ ("Fix weights"),
  N_ ("Fix ambient copies"),
  N_ ("Recompute first lines"),
  N_ ("Reset z-sort points"),
  N_ ("Fix counts"),
  N_ ("Clamp lengths"),
  N_ ("Fix section masks"),
  N_ ("Clamp texture quality"),
  N_ ("Clamp UV points"),
  N_ ("Add attachments to applied lists"),
};
G_STATIC_ASSERT (G_N_ELEMENTS (fix_labels) == TRESS_CHA_N_FIXES);

static gboolean
apply_fix_scoped (TressChaFile *file, TressHistory *history, TressChaFix fix, const Scope *scope,
                  guint *n_fixed, GError **error)
{
  g_autofree char *label = NULL;
  Ops ops;
  guint n;

  if (n_fixed)
    *n_fixed = 0;
  if ((guint)fix >= TRESS_CHA_N_FIXES)
    return refuse (error, "unknown fix %d", fix);
  ops_init (&ops);
  tress_progress_phase (_ ("Finding fixes"), 0, TRESS_PROGRESS_ENTRIES);
  n = plan_fixes (file, 1u << fix, scope, &ops);
  if (!tress_progress_check (error))
    {
      ops_clear (&ops);
      return FALSE;
    }
  if (n_fixed)
    *n_fixed = n;
  if (n > 1)
    /* Translators: a fix's name and how many problems it mends, e.g. "Fix weights (3)". */
    label = g_strdup_printf (_ ("%s (%u)"), _ (fix_labels[fix]), n);
  else
    label = g_strdup (_ (fix_labels[fix]));
  return commit (file, history, &ops, label);
}

gboolean
tress_cha_apply_fix (TressChaFile *file, TressHistory *history, TressChaFix fix, guint *n_fixed,
                     GError **error)
{
  return apply_fix_scoped (file, history, fix, NULL, n_fixed, error);
}

gboolean
tress_cha_apply_fix_at (TressChaFile *file, TressHistory *history, TressChaFix fix, int material,
                        gsize offset, guint *n_fixed, GError **error)
{
  Scope scope = { { 0 }, material, offset };
  gboolean ok;

  cha_layout_compute (file, &scope.layout);
  ok = apply_fix_scoped (file, history, fix, &scope, n_fixed, error);
  cha_layout_clear (&scope.layout);
  return ok;
}

guint
tress_cha_fix_all (TressChaFile *file, TressHistory *history, GError **error)
{
  g_autofree char *label = NULL;
  Ops ops;
  guint n;

  ops_init (&ops);
  tress_progress_phase (_ ("Finding fixes"), 0, TRESS_PROGRESS_ENTRIES);
  n = plan_fixes (file, (1u << TRESS_CHA_N_FIXES) - 1, NULL, &ops);
  if (!tress_progress_check (error))
    {
      ops_clear (&ops);
      return 0;
    }
  label = g_strdup_printf (ngettext ("Fix %u problem", "Fix %u problems", n), n);
  commit (file, history, &ops, label);
  return n;
}
