mod check_any_gold;
mod check_codes_doc;
mod check_formats;
mod convert;
mod encodings_read;
mod props_readers;
