//! YAML as the project writes it: enums as one-key maps (the shape serde_json uses, so YAML
//! scenarios and JSON protocol messages read alike), and the slugs that make card ids.
//!
//! The bottom of the module graph: the card pool, the rules and the scenario loader all use it.

/// Renders a value as YAML in the scenario style (enums as one-key maps).
pub fn to_yaml<T: serde::Serialize>(value: &T) -> String {
    let mut out = Vec::new();
    let mut ser = serde_yaml::Serializer::new(&mut out);
    match serde_yaml::with::singleton_map_recursive::serialize(value, &mut ser) {
        Ok(()) => String::from_utf8(out).unwrap_or_default(),
        Err(e) => format!("# could not render: {e}\n"),
    }
}

/// Deserializes YAML with enums written as one-key maps (`- search: {...}`, `count: {up_to: 2}`)
/// or plain strings for unit variants — the same shape serde_json uses, so YAML scenarios and
/// JSON protocol messages read alike. (serde_norway's default would be YAML tags, `!search`.)
pub fn from_yaml<T: serde::de::DeserializeOwned>(source: &str) -> Result<T, serde_yaml::Error> {
    serde_yaml::with::singleton_map_recursive::deserialize(serde_yaml::Deserializer::from_str(source))
}

/// The default id of a card: its name in lower case, non-alphanumerics as `-`.
pub fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}
