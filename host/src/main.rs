fn main() -> std::process::ExitCode {
    capstan::logging::init();
    capstan::cli::main()
}
