//! Embeds the bundled variants listed in `catalogue.toml` (file, title, about, other names, XBoard's names, text).

use std::path::Path;

#[derive(serde::Deserialize)]
struct Catalogue {
    variant: Vec<Entry>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct Entry {
    file: String,
    title: String,
    about: String,
    #[serde(default)]
    aliases: Vec<String>,
    xboard: Option<String>,
    xboard_parent: Option<String>,
    #[serde(default)]
    xboard_letters: std::collections::BTreeMap<char, char>,
}

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let catalogue = dir.join("catalogue.toml");
    println!("cargo:rerun-if-changed={}", catalogue.display());
    // The folder too, for a weights file added or removed; a missing file is never named (cargo
    // would then run this script, and rebuild every crate above it, at every build).
    println!("cargo:rerun-if-changed={}", dir.display());
    let text = std::fs::read_to_string(&catalogue).expect("variants/catalogue.toml is readable");
    let cat: Catalogue = toml::from_str(&text).expect("variants/catalogue.toml is valid");
    let mut out = String::from("/// The bundled variants, in catalogue order.\n");
    out.push_str("pub static BUNDLED: &[crate::Bundled] = &[\n");
    for v in cat.variant {
        let path = dir.join(&v.file).canonicalize().expect("a catalogued variant file exists");
        println!("cargo:rerun-if-changed={}", path.display());
        let stem = v.file.strip_suffix(".var").unwrap_or(&v.file);
        let weights = match dir.join(format!("{stem}.weights.toml")).canonicalize() {
            Ok(w) => {
                println!("cargo:rerun-if-changed={}", w.display());
                format!("Some(include_str!({:?}))", w.display().to_string())
            }
            Err(_) => "None".to_string(),
        };
        out.push_str(&format!(
            "    crate::Bundled {{ file: {:?}, title: {:?}, about: {:?}, aliases: &{:?}, xboard: {:?}, \
             xboard_parent: {:?}, xboard_letters: &{:?}, source: include_str!({:?}), weights: {weights} }},\n",
            v.file,
            v.title,
            v.about,
            v.aliases,
            v.xboard,
            v.xboard_parent,
            v.xboard_letters.into_iter().collect::<Vec<_>>(),
            path.display().to_string()
        ));
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR is set")).join("bundled.rs");
    std::fs::write(dest, out).expect("OUT_DIR is writable");
}
