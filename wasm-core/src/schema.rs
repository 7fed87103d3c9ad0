//! Helpers for the JSON Schemas of what the core writes (`orbitcp schema --results`), from which
//! the web app's result types are generated.

use schemars::gen::SchemaGenerator;
use schemars::schema::Schema;
use schemars::JsonSchema;
use std::marker::PhantomData;

/// The schema of an `Option<T>` field that is always written, as `null` for `None`: nullable
/// like an option, but required, so the generated type says `T | null` rather than `T?`.
/// Use as `#[schemars(with = "crate::schema::Nullable<T>")]`.
pub struct Nullable<T>(PhantomData<T>);

impl<T: JsonSchema> JsonSchema for Nullable<T> {
    fn is_referenceable() -> bool {
        false
    }

    fn schema_name() -> String {
        format!("Nullable_{}", T::schema_name())
    }

    fn json_schema(gen: &mut SchemaGenerator) -> Schema {
        <Option<T>>::json_schema(gen)
    }
}
