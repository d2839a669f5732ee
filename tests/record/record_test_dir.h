/* SPDX-License-Identifier: BSD-3-Clause */
/* A fresh folder under TMPDIR for one record test, and its removal. */
#ifndef RECORD_TEST_DIR_H
#define RECORD_TEST_DIR_H

/* A new folder TMPDIR/PREFIX-XXXXXX (malloc'd path); fails the test if
 * it cannot be made. */
char *record_test_dir(const char *prefix);

/* Remove the folder and everything in it, and free its path. */
void record_test_dir_remove(char *dir);

#endif /* RECORD_TEST_DIR_H */
