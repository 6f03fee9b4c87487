mod hardening_campaign;
mod hardening_numbers;
mod hardening_selection;
mod hardening_submissions;
mod limits;
mod robustness_bad_inputs;
mod robustness_mutation;
mod robustness_outputs;
