/* The C API (animkit/c/animkit.h) used from C11, on the files `animkit demo` writes (the ctest
 * fixture): open, info / dump / validate, glTF export, a dat entry, a scenario step by step, and
 * the errors. Run by ctest in the release and the ASan + UBSan passes (LeakSanitizer checks that
 * every handle and buffer is released). Exit 0 when every check passes. */
#include <animkit/c/animkit.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

static void check(int ok, const char* what) {
  printf("%s: %s\n", ok ? "ok" : "FAILED", what);
  if (!ok) {
    printf("  last error: %s\n", animkit_last_error());
    ++failures;
  }
}

static char* path_in(const char* dir, const char* name) {
  size_t n = strlen(dir) + strlen(name) + 2;
  char* path = malloc(n);
  snprintf(path, n, "%s/%s", dir, name);
  return path;
}

static char* read_text(const char* path) {
  FILE* f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  char* text = malloc((size_t)size + 1);
  size_t got = fread(text, 1, (size_t)size, f);
  text[got] = '\0';
  fclose(f);
  return text;
}

static uint32_t le32(const uint8_t* p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void test_document(const char* dir) {
  char* path = path_in(dir, "warriors-walk.anm");
  animkit_document* doc = NULL;
  check(animkit_open(path, NULL, &doc) == ANIMKIT_OK && doc != NULL, "open warriors-walk.anm");
  if (!doc) {
    free(path);
    return;
  }
  check(strcmp(animkit_format(doc), "warriors-anm") == 0, "its format is warriors-anm");
  char* json = NULL;
  check(animkit_info_json(doc, &json) == ANIMKIT_OK && json && json[0] == '{', "info is a JSON object");
  animkit_free(json);
  json = NULL;
  check(animkit_dump_json(doc, &json) == ANIMKIT_OK && json && json[0] == '{', "dump is a JSON object");
  animkit_free(json);
  json = NULL;
  check(animkit_validate_json(doc, &json) == ANIMKIT_OK && json && strstr(json, "\"findings\":") &&
            strstr(json, "\"errors\":"),
        "validate gives findings and counts");
  animkit_free(json);

  /* glTF 2.0 binary: magic "glTF", version 2, the header's length is the whole file. */
  uint8_t* glb = NULL;
  size_t size = 0;
  check(animkit_export_gltf(doc, 1, &glb, &size) == ANIMKIT_OK && size > 20 &&
            memcmp(glb, "glTF", 4) == 0 && le32(glb + 4) == 2 && le32(glb + 8) == size,
        "export as .glb");
  animkit_free(glb);
  uint8_t* text = NULL;
  check(animkit_export_gltf(doc, 0, &text, &size) == ANIMKIT_OK && size > 0 && text[0] == '{' &&
            text[size] == '\0' && strstr((const char*)text, "\"asset\""),
        "export as .gltf text");
  animkit_free(text);
  animkit_close(doc);

  /* Options pick the format; a damaged file is an input error naming it. */
  doc = NULL;
  check(animkit_open(path, "{\"format\": \"warriors-anm\"}", &doc) == ANIMKIT_OK, "open with --format");
  animkit_close(doc);
  char* cut = path_in(dir, "c-api-truncated.anm");
  FILE* f = fopen(cut, "wb");
  fwrite("ANM", 1, 3, f);
  fclose(f);
  doc = NULL;
  check(animkit_open(cut, "{\"format\": \"warriors-anm\"}", &doc) == ANIMKIT_ERROR_INPUT && doc == NULL &&
            strstr(animkit_last_error(), "c-api-truncated.anm") != NULL,
        "a truncated file is ANIMKIT_ERROR_INPUT naming it");
  free(cut);
  free(path);
}

static void test_errors(const char* dir) {
  animkit_document* doc = NULL;
  check(animkit_open(NULL, NULL, &doc) == ANIMKIT_ERROR_USAGE, "a NULL path is a usage error");
  char* missing = path_in(dir, "no-such-file.anm");
  check(animkit_open(missing, NULL, &doc) == ANIMKIT_ERROR_INPUT &&
            strstr(animkit_last_error(), "no-such-file.anm") != NULL,
        "a missing file is an input error naming it");
  check(animkit_open(missing, "[1, 2]", &doc) == ANIMKIT_ERROR_USAGE, "options not an object: usage error");
  check(animkit_open(missing, "{\"format\": 3}", &doc) == ANIMKIT_ERROR_USAGE, "an option not a string: usage error");
  check(animkit_open(missing, "{", &doc) == ANIMKIT_ERROR_USAGE, "options not JSON: usage error");
  free(missing);
  char* json = NULL;
  check(animkit_info_json(NULL, &json) == ANIMKIT_ERROR_USAGE && json == NULL, "info of NULL: usage error");
  animkit_player* player = NULL;
  check(animkit_player_open("{\"engine\": \"nobody\"}", NULL, &player) == ANIMKIT_ERROR_INPUT &&
            player == NULL && strstr(animkit_last_error(), "nobody") != NULL,
        "a scenario for no engine is an input error");
  check(animkit_player_open("{\"engine\":", NULL, &player) == ANIMKIT_ERROR_INPUT, "a scenario not JSON");
  animkit_close(NULL);
  animkit_player_close(NULL);
  animkit_free(NULL);
}

static void test_dat_entry(const char* dir) {
  char* dat = path_in(dir, "asherons_call/humanoid.dat");
  animkit_document* doc = NULL;
  check(animkit_open_dat_entry(dat, 0x02000001u, &doc) == ANIMKIT_OK && doc != NULL,
        "open Setup 0x02000001 of humanoid.dat");
  if (doc) {
    uint8_t* glb = NULL;
    size_t size = 0;
    check(animkit_export_gltf(doc, 1, &glb, &size) == ANIMKIT_OK && memcmp(glb, "glTF", 4) == 0,
          "the creature exports as .glb");
    animkit_free(glb);
    animkit_close(doc);
  }
  doc = NULL;
  check(animkit_open_dat_entry(dat, 0x0E00FFFFu, &doc) == ANIMKIT_ERROR_INPUT && doc == NULL,
        "an entry the dat lacks is an input error");
  free(dat);
}

static void test_player(const char* dir) {
  char* path = path_in(dir, "warriors-scenario.json");
  char* scenario = read_text(path);
  check(scenario != NULL, "read warriors-scenario.json");
  animkit_player* player = NULL;
  if (scenario && animkit_player_open(scenario, dir, &player) == ANIMKIT_OK) {
    int updates = 0, objects = 1;
    const char* line = NULL;
    animkit_status status;
    while ((status = animkit_player_step(player, &line)) == ANIMKIT_OK) {
      ++updates;
      objects &= line[0] == '{';
    }
    check(status == ANIMKIT_DONE && updates > 0 && objects, "the trace comes one JSON object per step");
    check(animkit_player_step(player, &line) == ANIMKIT_DONE, "and stays done");
    check(animkit_player_exit_code(player) == 0, "the scenario plays cleanly");
    animkit_player_close(player);
  } else {
    check(0, "open the scenario's player");
  }
  free(scenario);
  free(path);
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: c_api_test DEMO_DIR (the output of `animkit demo`)\n");
    return 2;
  }
  check(strcmp(animkit_version(), "") != 0, animkit_version());
  test_document(argv[1]);
  test_errors(argv[1]);
  test_dat_entry(argv[1]);
  test_player(argv[1]);
  printf("%d failures\n", failures);
  return failures == 0 ? 0 : 1;
}
