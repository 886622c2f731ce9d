/* tress-curve-store-question.h: asking before an edit moves keys nobody touched
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "formats/tress-format.h"

G_BEGIN_DECLS

typedef enum
{
  TRESS_STORE_CANCEL,
  TRESS_STORE_KEEP,  /* the coarser step: the other keys move */
  TRESS_STORE_WIDEN, /* the wider value type: the file grows */
} TressStoreChoice;

/* The dialog's responses for the two ways to store (Cancel is GTK_RESPONSE_CANCEL). */
#define TRESS_STORE_RESPONSE_KEEP 1
#define TRESS_STORE_RESPONSE_WIDEN 2

typedef void (*TressStoreAnswer) (TressStoreChoice choice, gpointer data);

/* Presents a modal question over @parent: @label (the edit, "Move 1 key")
 * would store curve @path (the first of @n_curves such curves) at a coarser
 * step (@cost), moving keys the user did not touch; Keep, Widen (the default,
 * when @cost names a wider type) or Cancel. Values are shown multiplied by
 * @unit_scale and followed by @unit ("°" for angles in degrees). @answer gets
 * the choice once, also when the dialog is closed (Cancel). Returns the dialog
 * (owned by GTK). */
GtkWidget *tress_curve_store_question_present (GtkWindow *parent, const char *label,
                                               const char *path, guint n_curves,
                                               const TressStoreCost *cost, double unit_scale,
                                               const char *unit, TressStoreAnswer answer,
                                               gpointer data);

G_END_DECLS
