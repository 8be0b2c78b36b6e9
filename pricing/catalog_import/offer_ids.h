#pragma once

// Ids of imported offers: "<provider>-<instance>[-<region>]", lower-case, in the characters an
// id may hold (pricing/yaml_reader.h: letters, digits, '.', '_', '-'; at most 64). Stable: the
// same catalog row gets the same id at every import, so a newer import of the same catalog
// replaces the older file's offers (user files layer by id) instead of adding copies.

#include <string>
#include <vector>

namespace gpuplan::catalog_import {

struct OfferKey {
    std::string instance;
    std::string region; // empty: no region in the id
};

// One id per key, in order, all different. Where sanitising makes two keys alike ("France, FR"
// and "France FR") or an id is too long, a short hash of the key as written keeps it unique
// and stable.
std::vector<std::string> makeOfferIds(
    const std::string& provider, const std::vector<OfferKey>& keys);

// Lower-case letters, digits, '.', '_'; anything else becomes '-', runs of '-' one, none at
// either end, no '.' first (file names made of it are never hidden):
// "Hafnarfjarðarkaupstaður, IS, EU" -> "hafnarfjar-arkaupsta-ur-is-eu".
std::string sanitisedIdPart(const std::string& text);

} // namespace gpuplan::catalog_import
