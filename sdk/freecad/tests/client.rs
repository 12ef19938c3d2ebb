//! The generated client matches the catalog the host embeds: every command a pack may
//! send, with its effect, the server name and the catalog's hash.

use capstan_freecad::*;
use capstan_sdk::bridge::Effect;
use serde_json::Value;

#[test]
fn the_client_is_the_catalogs() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../bridges/freecad/capstan_freecad/commands.json");
    let text = std::fs::read(path).unwrap();
    let catalog: Value = serde_json::from_slice(&text).unwrap();
    let mut want: Vec<(String, String)> = catalog["commands"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(_, c)| c["host_only"] != true)
        .map(|(name, c)| (name.clone(), c["effect"].as_str().unwrap().to_string()))
        .collect();
    want.sort();
    let effect = |e: Effect| match e {
        Effect::Read => "read",
        Effect::Write => "write",
        Effect::Mutate => "mutate",
        Effect::Destroy => "destroy",
    };
    let got: Vec<(String, String)> = COMMANDS.iter().map(|(n, e)| (n.to_string(), effect(*e).to_string())).collect();
    assert_eq!(got, want);
    assert_eq!(SERVER, catalog["app"]);
    use sha2::Digest;
    assert_eq!(CATALOG_SHA256, hex::encode(sha2::Sha256::digest(&text)), "regenerate with scripts/bridgegen.py --app freecad");
}

#[test]
fn params_carry_the_catalogs_schema_and_codes_are_typed() {
    let params = CreatePrimitiveParams {
        kind: CreatePrimitiveParamsKind::Box,
        name: None,
        length: Some(10.0),
        width: Some(20.0),
        height: Some(30.0),
        radius: None,
        top_radius: None,
        tube_radius: None,
        position: None,
        rotation: None,
    };
    let sent = serde_json::to_value(&params).unwrap();
    assert_eq!(sent["kind"], "box");
    assert_eq!(AppErrorCode::parse("operation_failed"), AppErrorCode::OperationFailed);
    assert_eq!(AppErrorCode::parse("no_such_code"), AppErrorCode::Unknown);
}
