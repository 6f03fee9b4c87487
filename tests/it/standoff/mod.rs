mod agree;
mod formats_jsonl;
mod standoff_adversarial;
mod standoff_check;
mod standoff_hipe;
mod standoff_scores;
mod doccano_entities;
