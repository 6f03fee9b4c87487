mod check_codes_doc;
mod check_formats;
mod props_readers;
