/* The C API of animkit (issue 33; DESIGN.md, "The house": animkit/c/). C11, for the users of
 * other languages (C#, Rust, Go through their C FFIs): opaque handles, status codes, no C++
 * exception ever crosses it. Every text result is UTF-8 JSON, NUL-terminated; every buffer the
 * library hands out is released with animkit_free(). When a call fails it returns a status other
 * than ANIMKIT_OK and animkit_last_error() gives the message line the command line would print
 * (`FILE: offset 0x1a4: what is wrong`), kept per thread until that thread's next call. */
#ifndef ANIMKIT_C_ANIMKIT_H
#define ANIMKIT_C_ANIMKIT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum animkit_status {
  ANIMKIT_OK = 0,
  ANIMKIT_ERROR_INPUT = 1,    /* bad input: a damaged or unrecognised file, a bad scenario */
  ANIMKIT_ERROR_USAGE = 2,    /* a NULL argument, a malformed options object, ... */
  ANIMKIT_ERROR_INTERNAL = 3, /* out of memory, or a failure animkit did not anticipate */
  ANIMKIT_DONE = 4            /* animkit_player_step: no update left */
} animkit_status;

/* An opened file (what the command line's info / dump / validate / export see). */
typedef struct animkit_document animkit_document;
/* A scenario being played by its engine's player. */
typedef struct animkit_player animkit_player;

/* The library's version, "MAJOR.MINOR.PATCH". */
const char* animkit_version(void);

/* The calling thread's last error line ("" when its last call succeeded). */
const char* animkit_last_error(void);

/* Releases a string or byte buffer the library returned (NULL is accepted). */
void animkit_free(void* buffer);

/* Opens a file of any registered format. `options_json` is NULL or a JSON object of strings:
 * the command line's engine options without the dashes, e.g. {"format": "warriors-anm"},
 * {"skeleton": "a.bin"}. */
animkit_status animkit_open(const char* path, const char* options_json, animkit_document** out);
/* Opens one entry of an Asheron's Call dat by its id (e.g. 0x09000001, a motion table). */
animkit_status animkit_open_dat_entry(const char* path, uint32_t id, animkit_document** out);
void animkit_close(animkit_document* document);

/* The format's name (e.g. "warriors-anm"); owned by the document. */
const char* animkit_format(const animkit_document* document);

/* JSON text, released with animkit_free(): `info --json`, `dump --json` and `validate --json`
 * ({"findings": [...], "errors": E, "warnings": W}) of the document. */
animkit_status animkit_info_json(const animkit_document* document, char** json);
animkit_status animkit_dump_json(const animkit_document* document, char** json);
animkit_status animkit_validate_json(const animkit_document* document, char** json);

/* The document's skeleton and clips as glTF 2.0: a .glb when `binary` is nonzero, else the .gltf
 * text with its buffer embedded. Released with animkit_free(). */
animkit_status animkit_export_gltf(const animkit_document* document, int binary, uint8_t** data,
                                   size_t* size);

/* Plays a scenario (the JSON of `animkit play`; its "engine" picks the player). Relative file
 * names in it are resolved from `base_dir` (NULL: the current folder). The engines' players run
 * a scenario in one call, so the whole scenario is played here (an invalid one fails here);
 * animkit_player_step then hands its trace out one update at a time. */
animkit_status animkit_player_open(const char* scenario_json, const char* base_dir,
                                   animkit_player** out);
/* The next update's trace record (one line of `animkit play --json`), owned by the player and
 * valid until the next call; ANIMKIT_DONE after the last one. */
animkit_status animkit_player_step(animkit_player* player, const char** trace_json);
/* The player's exit code, as `animkit play` would return it (0, or 1 when it found an error). */
int animkit_player_exit_code(const animkit_player* player);
void animkit_player_close(animkit_player* player);

#ifdef __cplusplus
}
#endif

#endif /* ANIMKIT_C_ANIMKIT_H */
