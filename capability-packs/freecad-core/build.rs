fn main() {
    capstan_pack_build::capabilities_registry();
}
