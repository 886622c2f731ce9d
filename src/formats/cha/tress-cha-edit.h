/* tress-cha-edit.h: undoable edit operations on a creature-fur model
 *
 * Every operation builds one TressCommand and hands it to
 * tress_history_perform(); the history's target must be the TressChaFile.
 * With @history NULL the command is applied and dropped (no undo), which the
 * CLI uses. A command stores the exact before and after values of what it
 * changes and refers to things by index, so undo restores the very same bytes.
 *
 * Each operation keeps every invariant of the format page: weight triples sum
 * to 255, references index the applied list, counts agree, first-line indices
 * stay the running sum, a ribbon has 2 lines per section with one-hot masks,
 * lengths stay within the maximum. An operation that cannot keep them (bad
 * index, undecoded lines, a material whose first-line indices are already
 * broken for a structural edit) returns FALSE with TRESS_ERROR_REFUSED and
 * changes nothing. Operations that would change nothing return TRUE and push
 * no command.
 *
 * Array pointers in the model (lines, per-ribbon arrays, applied lists) may
 * move when a command with TRESS_CHA_CHANGE_STRUCTURE or _MATERIAL is applied
 * or undone: views re-read them from the model after such a change.
 *
 * What changed: after a command is applied (perform, undo or redo) the file's
 * change callback (tress_cha_file_set_change_func) runs with a TressChaChange,
 * and the history's "applied" signal carries the command, from which
 * tress_cha_command_get_change() gives the same description.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "core/tress-history.h"
#include "tress-cha-model.h"

G_BEGIN_DECLS

typedef struct
{
  guint material;
  guint line; /* index in the material's line array */
} TressChaLineId;

typedef struct
{
  guint material;
  guint ribbon;
} TressChaRibbonId;

typedef enum
{
  TRESS_CHA_CHANGE_LINES = 1 << 0,     /* line contents (weights, refs, bytes, directions, masks) */
  TRESS_CHA_CHANGE_RIBBONS = 1 << 1,   /* per-ribbon values (points, lengths, quality, attach…) */
  TRESS_CHA_CHANGE_STRUCTURE = 1 << 2, /* ribbons or lines inserted/removed: indices shifted */
  TRESS_CHA_CHANGE_MATERIAL = 1 << 3,  /* applied list, UV table, repeated counts */
  TRESS_CHA_CHANGE_HEADER = 1 << 4,    /* file header or radeon header values */
  /* With LINES alone: nothing but weight bytes changed (the geometry did not). */
  TRESS_CHA_CHANGE_WEIGHTS = 1 << 5,
} TressChaChangeFlags;

/* What one command changed. Valid as long as the command lives. */
struct _TressChaChange
{
  TressChaChangeFlags flags;
  int material; /* the material changed, or -1 when several (or none: header only) */
  /* Ribbons touched in that material, sorted, no duplicates; with flags ≠ 0 and
   * n_ribbons == 0 the whole material (or file, material -1) should be reloaded.
   * With STRUCTURE set, reload from ribbons[0] on (or all when n_ribbons == 0). */
  guint n_ribbons;
  const guint *ribbons;
  /* Lines touched in that material, sorted (for LINES changes; may be empty
   * when the ribbons say enough). */
  guint n_lines;
  const guint *lines;
};

/* The change of a command made here, or NULL for any other command. */
const TressChaChange *tress_cha_command_get_change (const TressCommand *cmd);

/* ---- weights and references ---------------------------------------------- */

/* Sets the weight of reference @k (0…2) to @value on each line and rescales the
 * other two in proportion to their old values (evenly when both are 0), integer
 * bytes summing to exactly 255. Label "Set weight of N lines". */
gboolean tress_cha_set_weight (TressChaFile *file, TressHistory *history,
                               const TressChaLineId *lines, guint n_lines, guint k, guint8 value,
                               GError **error);
/* Sets all three weights (of references 0, 1, 2; must sum to 255) on each line.
 * Label "Set weights of N lines". */
gboolean tress_cha_set_weights (TressChaFile *file, TressHistory *history,
                                const TressChaLineId *lines, guint n_lines, const guint8 w[3],
                                GError **error);
/* Sets the three references of every line of a ribbon to the applied-list
 * entries @entries (each < n_applied; stored as 3 × entry). */
gboolean tress_cha_set_ribbon_refs (TressChaFile *file, TressHistory *history,
                                    TressChaRibbonId ribbon, const guint entries[3],
                                    GError **error);
/* Sets reference @k (0-2) of every line of a ribbon to applied-list entry
 * @entry, leaving the other two as they are. Label "Set body part K+1 of
 * ribbon R". */
gboolean tress_cha_set_ribbon_ref (TressChaFile *file, TressHistory *history,
                                   TressChaRibbonId ribbon, guint k, guint entry, GError **error);

/* ---- retarget ------------------------------------------------------------- */

typedef struct
{
  int material;         /* -1: every material of the file */
  const guint *ribbons; /* ribbons of that material, or NULL: all of it */
  guint n_ribbons;
} TressChaScope;

/* Counts what tress_cha_retarget() would change, without editing: lines with at
 * least one reference to @from and ribbons with such a line or attached to @from. */
gboolean tress_cha_retarget_count (const TressChaFile *file, const TressChaScope *scope,
                                   guint32 from, guint32 to, guint *n_lines, guint *n_ribbons,
                                   GError **error);
/* Replaces body part @from by @to (real body-part numbers) in the references and
 * attachments of the scope, appending @to to a material's applied list when it is
 * missing there. Label "Retarget N lines from A to B". */
gboolean tress_cha_retarget (TressChaFile *file, TressHistory *history, const TressChaScope *scope,
                             guint32 from, guint32 to, GError **error);

/* ---- line bytes and directions -------------------------------------------- */

typedef enum
{
  TRESS_CHA_BYTE_AMBIENT,  /* byte 12, and byte 15 follows it */
  TRESS_CHA_BYTE_COLOUR_1, /* byte 13 */
  TRESS_CHA_BYTE_COLOUR_2, /* byte 14 */
} TressChaLineByte;

gboolean tress_cha_set_line_byte (TressChaFile *file, TressHistory *history,
                                  const TressChaLineId *lines, guint n_lines,
                                  TressChaLineByte which, guint8 value, GError **error);
/* Sets the section mask of each line to the one-hot mask of @section (1…7). */
gboolean tress_cha_set_line_section (TressChaFile *file, TressHistory *history,
                                     const TressChaLineId *lines, guint n_lines, guint section,
                                     GError **error);
gboolean tress_cha_set_line_direction (TressChaFile *file, TressHistory *history,
                                       const TressChaLineId *lines, guint n_lines,
                                       const float direction[3], GError **error);
/* Sets one component (0 x, 1 y, 2 z) of the direction of @lines, the others
 * as they are; consecutive sets of the same component merge. */
gboolean tress_cha_set_line_direction_component (TressChaFile *file, TressHistory *history,
                                                 const TressChaLineId *lines, guint n_lines,
                                                 guint component, float value, GError **error);

/* ---- per-ribbon values ---------------------------------------------------- */

gboolean tress_cha_set_attachment (TressChaFile *file, TressHistory *history,
                                   TressChaRibbonId ribbon, guint32 body_part, GError **error);
gboolean tress_cha_set_quality (TressChaFile *file, TressHistory *history,
                                const TressChaRibbonId *ribbons, guint n_ribbons, guint32 quality,
                                GError **error);
/* Sets the two base points; a z-sort point equal to the old first base point follows it. */
gboolean tress_cha_set_base_points (TressChaFile *file, TressHistory *history,
                                    TressChaRibbonId ribbon, const float points[6], GError **error);
/* Sets the displacement of both points under morph @morph. */
gboolean tress_cha_set_morph_points (TressChaFile *file, TressHistory *history,
                                     TressChaRibbonId ribbon, guint morph,
                                     const float displacement[6], GError **error);
/* Sets the length for @morality (0 = base, 1… = morality n−1). A value above the
 * maximum for the ribbon's section count is clamped; *clamped (may be NULL) tells. */
gboolean tress_cha_set_length (TressChaFile *file, TressHistory *history, TressChaRibbonId ribbon,
                               guint morality, float length, gboolean *clamped, GError **error);
gboolean tress_cha_set_zsort (TressChaFile *file, TressHistory *history, TressChaRibbonId ribbon,
                              const float point[3], GError **error);
/* Sets UV floats [@first, @first + @n) of a material's table (values in 0…1). */
gboolean tress_cha_set_uv (TressChaFile *file, TressHistory *history, guint material, guint first,
                           guint n, const float *values, GError **error);

/* ---- structure ------------------------------------------------------------ */

/* Inserts a copy of the ribbon right after it (lines included). */
gboolean tress_cha_duplicate_ribbon (TressChaFile *file, TressHistory *history,
                                     TressChaRibbonId ribbon, GError **error);
gboolean tress_cha_delete_ribbon (TressChaFile *file, TressHistory *history,
                                  TressChaRibbonId ribbon, GError **error);
/* Adds a section at the tip (two lines copied from the tip section, with the next
 * mask and ambient step); at most 7 sections. */
gboolean tress_cha_add_section (TressChaFile *file, TressHistory *history, TressChaRibbonId ribbon,
                                GError **error);
/* Removes the tip section (its two lines); at least 1 section stays. Lengths
 * above the new maximum are clamped. */
gboolean tress_cha_remove_section (TressChaFile *file, TressHistory *history,
                                   TressChaRibbonId ribbon, GError **error);

/* ---- fixes ---------------------------------------------------------------- */

/* Applies one fix everywhere it is needed, as one command; *n_fixed (may be
 * NULL) gets the number of places changed. */
gboolean tress_cha_apply_fix (TressChaFile *file, TressHistory *history, TressChaFix fix,
                              guint *n_fixed, GError **error);
/* Applies one fix to one problem only: the field at byte @offset (a
 * TressProblem's offset, as validate reported it for the current model), or,
 * with @offset G_MAXSIZE, every problem of that fix in @material (−1: in the
 * whole file; what a summed-up problem row stands for). One undo step; with
 * nothing there to fix it succeeds and *n_fixed is 0. */
gboolean tress_cha_apply_fix_at (TressChaFile *file, TressHistory *history, TressChaFix fix,
                                 int material, gsize offset, guint *n_fixed, GError **error);
/* Applies every fix, as one undo step ("Fix N problems"); returns the count. */
guint tress_cha_fix_all (TressChaFile *file, TressHistory *history, GError **error);

/* ---- edits planned on one thread, performed on another -------------------- */

/* A whole-file edit takes a while to plan (finding what changes, keeping the
 * before and after bytes) and little to apply. Between tress_cha_batch_begin()
 * and _end() the operations above, called on this thread, only plan: they
 * read the file, build their commands and keep them in the batch, changing
 * nothing (so a worker thread may plan while the thread owning the file only
 * reads it too). Each plans from the file as it is: operations whose changes
 * overlap must not share a batch. The operations report to this thread's
 * TressProgress (tress-progress.h) and stop, with G_IO_ERROR_CANCELLED, when it
 * is cancelled. */
typedef struct _TressChaBatch TressChaBatch;

void tress_cha_batch_begin (void);
TressChaBatch *tress_cha_batch_end (void);
guint tress_cha_batch_get_n_commands (const TressChaBatch *batch);
/* The undo label of command @i, as the operation would have given it. */
const char *tress_cha_batch_get_label (const TressChaBatch *batch, guint i);
/* On the thread owning @file: performs the commands in order through @history
 * (or applies and drops them with @history NULL), as the operations would have.
 * The batch is empty afterwards. */
void tress_cha_batch_perform (TressChaBatch *batch, TressChaFile *file, TressHistory *history);
void tress_cha_batch_free (TressChaBatch *batch);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TressChaBatch, tress_cha_batch_free)

/* Rebalance helper: @w (reference order) with reference @k set to @value and the
 * other two rescaled proportionally so the three sum to 255. */
void tress_cha_rebalance_weights (const guint8 old[3], guint k, guint8 value, guint8 out[3]);

G_END_DECLS
