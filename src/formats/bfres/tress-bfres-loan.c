/* tress-bfres-loan.c: the edited bytes a save hands out, without a copy
 *
 * A save returns the edit buffer itself as GBytes (a reference to the array
 * is held by the bytes); the next edit copies the buffer first only while a
 * save is still held. See bfres_writable and bfres_end_loan.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-bfres-private.h"

/* The edited bytes handed out in place. The loan and its owner point at each
 * other while both live; the bytes may be dropped on another thread (a save
 * written off the UI thread), hence the lock. */
struct _BfresLoan
{
  GByteArray *array; /* a reference of its own */
  GBytes *bytes;     /* not a reference: the loan lives exactly as long */
  TressBfres *owner; /* NULL once the owner edited again or was freed */
};

G_LOCK_DEFINE_STATIC (bfres_loans);

static void
loan_free (gpointer p)
{
  BfresLoan *loan = p;

  G_LOCK (bfres_loans);
  if (loan->owner != NULL)
    loan->owner->loan = NULL;
  G_UNLOCK (bfres_loans);
  g_byte_array_unref (loan->array);
  g_free (loan);
}

void
bfres_end_loan (TressBfres *b)
{
  gboolean lent;

  G_LOCK (bfres_loans);
  lent = b->loan != NULL;
  if (lent)
    {
      b->loan->owner = NULL;
      b->loan = NULL;
    }
  G_UNLOCK (bfres_loans);
  /* The array is the loan's now: never written again. */
  if (lent)
    g_clear_pointer (&b->data, g_byte_array_unref);
}

/* Without a copy: a save of a big file costs no fresh memory (whose first touch
 * cost more than the rest of the save), and the next edit copies only when the
 * saved bytes are still held. */
GBytes *
tress_bfres_get_bfres_bytes (TressBfres *b)
{
  GBytes *out = NULL;

  if (b->data == NULL)
    return g_bytes_ref (b->original);
  G_LOCK (bfres_loans);
  if (b->loan != NULL)
    out = g_bytes_ref (b->loan->bytes);
  G_UNLOCK (bfres_loans);
  if (out == NULL)
    {
      BfresLoan *loan = g_new0 (BfresLoan, 1);

      loan->array = g_byte_array_ref (b->data);
      loan->owner = b;
      loan->bytes = out = g_bytes_new_with_free_func (b->d, b->size, loan_free, loan);
      G_LOCK (bfres_loans);
      b->loan = loan;
      G_UNLOCK (bfres_loans);
    }
  return out;
}
