/* Unit tests of src/json.c: exact integers, errors with positions, leniency. */
#include "check.h"
#include "json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    json_error e;
    const char *t = "{\"n\": 12345678901234567890, \"f\": 1.5, \"s\": \"\\u5e25\"}";
    cJSON *v = json_parse(t, strlen(t), JSON_STRICT, &e);
    CHECK(v != NULL, "%s", e.message);
    cJSON *n = cJSON_GetObjectItem(v, "n");
    CHECK(cJSON_IsRaw(n) && strcmp(n->valuestring, "12345678901234567890") == 0, "integer digits kept");
    CHECK(strcmp(cJSON_GetObjectItem(v, "s")->valuestring, "\xE5\xB8\xA5") == 0, "\\u escape to UTF-8");
    cJSON_Delete(v);

    const char *bad = "[1,\n 2,\n NaN]";
    CHECK(json_parse(bad, strlen(bad), JSON_STRICT, &e) == NULL, "NaN refused in strict mode");
    CHECK(e.line == 3 && e.column == 2 && e.offset == 9, "position %zu:%zu @%zu", e.line, e.column, e.offset);
    v = json_parse(bad, strlen(bad), JSON_LENIENT, &e);
    CHECK(v && isnan(cJSON_GetArrayItem(v, 2)->valuedouble), "NaN accepted in lenient mode");
    cJSON_Delete(v);

    char buf[32];
    json_format_double(0.1, buf);
    CHECK(strcmp(buf, "0.1") == 0, "%s", buf);
    json_format_double(3.0, buf);
    CHECK(strcmp(buf, "3.0") == 0, "%s", buf);
    json_format_double(1.0 / 3.0, buf);
    CHECK(strtod(buf, NULL) == 1.0 / 3.0, "%s", buf);
    return check_report("test_json");
}
