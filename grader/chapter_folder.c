/* chapter_folder.c: the folder a chapter program was built from,
 * chapters/<MW_CHAPTER_FOLDER>/, set by the Makefile when it compiles this
 * file once per chapter. main.c holds the chapter's id to it: results,
 * plots and reports are filed under the id, so a chapter copied from
 * another and left with the other's id would write into that one's. */
#include "mw.h"

#ifndef MW_CHAPTER_FOLDER
#error "compile with -DMW_CHAPTER_FOLDER='\"NN-name\"' (the Makefile does)"
#endif

const char mw_chapter_folder[] = MW_CHAPTER_FOLDER;
