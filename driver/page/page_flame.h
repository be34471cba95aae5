/*
 * page_flame.h - a flame graph as one static inline SVG (no script): folded
 * stacks in, a box per frame out, as wide as its samples, children above
 * their caller, siblings in name order, each with a <title> (name, samples,
 * share) the browser shows on hover. Kernel frames ("_[k]") in orange, the
 * rest in reds and yellows. Knows no results directory.
 */
#ifndef DBSCALE_PAGE_FLAME_H
#define DBSCALE_PAGE_FLAME_H

#include <stddef.h>

#include "core/util.h"

/* Append the flame graph of the folded text (lines "a;b;c count") titled
 * title; frames under min_share of all samples are left out. Returns the
 * boxes drawn (each a <rect class="fr">), 0 for no samples (then a
 * sentence, no SVG). */
size_t page_flame(struct sbuf *b, const char *title, const char *folded, double min_share);
/* A differential flame graph: B's stacks drawn as page_flame draws them,
 * each frame coloured by how its share of B's samples differs from the same
 * frame's share of A's (red: more in B, blue: less, white: the same), the
 * hover giving both shares. Returns the boxes drawn, 0 when a side has no
 * samples (then a sentence). */
size_t page_flame_diff(struct sbuf *b, const char *title, const char *folded_a,
                       const char *folded_b, double min_share);

#endif
