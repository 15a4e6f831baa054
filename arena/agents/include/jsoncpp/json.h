/* Botzone's include path for JsonCpp: uploaded C++ programs write #include "jsoncpp/json.h" as on Botzone,
   and get Debian's libjsoncpp (package libjsoncpp-dev, headers in /usr/include/jsoncpp/json). */
#include <json/json.h>
