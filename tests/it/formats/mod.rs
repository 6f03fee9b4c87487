mod check_any_gold;
mod check_codes_doc;
mod check_every_problem;
mod check_formats;
mod convert;
mod convert_types;
mod encodings_read;
mod props_readers;
