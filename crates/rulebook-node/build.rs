//! Links the addon as napi-rs builds it (the symbols Node provides are resolved at load).

fn main() {
    napi_build::setup();
}
