mod cli_flags;
mod closed_pipe;
mod hostile_names;
mod json_schema_files;
mod json_schema_refusals;
mod json_schemas;
mod progress;
mod results_schema;
