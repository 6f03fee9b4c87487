mod check_any_gold;
mod check_codes_doc;
mod check_formats;
mod convert;
mod props_readers;
