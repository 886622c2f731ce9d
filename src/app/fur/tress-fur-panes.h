/* tress-fur-panes.h: the fur editor's dividers, kept across runs
 *
 * The tree's width (the divider between the ribbon tree and the preview / UV
 * map) and the inspector's (the divider right of them) come from the
 * "io.github.tress.Tress.FurEditor" settings and are written back as the user
 * drags them. The inspector keeps its width when the window is resized.
 * Without the schema installed they start at their defaults and are not kept.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TRESS_FUR_EDITOR_SCHEMA "io.github.tress.Tress.FurEditor"

void tress_fur_panes_init (GtkPaned *tree_paned);
/* A paned (named "inspector_paned") of @views | @inspector, the inspector's
 * width kept. */
GtkWidget *tress_fur_panes_inspector_new (GtkWidget *inspector, GtkWidget *views);

G_END_DECLS
