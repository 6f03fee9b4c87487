mod agree;
mod doccano_entities;
mod formats_jsonl;
mod standoff_adversarial;
mod standoff_check;
mod standoff_hipe;
mod standoff_scores;
