//! A binary meeting a CPU it was not built for.
//!
//! `.cargo/config.toml` builds for the compiling CPU (`-C target-cpu=native`),
//! so a binary copied to an older CPU stops at the first instruction that CPU
//! lacks, anywhere in the program, with SIGILL. Checking a list of features at
//! start-up cannot catch this: `is_x86_feature_detected!` answers `true` for
//! every feature the binary was compiled with, and the compiler uses the wider
//! instructions in code as plain as deserialisation. So the signal itself is
//! caught, and the process says what happened and how to build a binary that
//! runs, instead of dying with "Illegal instruction".

/// The exit status of a process killed by SIGILL, as a shell reports it.
pub const EXIT_ILLEGAL_INSTRUCTION: u8 = 128 + 4;

const MESSAGE: &[u8] =
    b"\nerror: illegal instruction (SIGILL). This tune2048 was most likely built \
for another CPU: the default build is for the CPU that compiles it (.cargo/config.toml, \
-C target-cpu=native), and this CPU lacks an instruction the build uses. Build it on this \
machine (cargo build --release), or build one binary for several machines with \
RUSTFLAGS=\"-C target-cpu=x86-64-v3\" (any CPU with AVX2) or RUSTFLAGS=\"\" (any x86-64); \
see README.md, Set-up.\n";

/// Replaces the death by SIGILL with an explanation on stderr and exit status
/// [`EXIT_ILLEGAL_INSTRUCTION`], in every thread. Call it first in `main`.
pub fn explain_illegal_instructions() {
    #[cfg(unix)]
    {
        extern "C" fn on_sigill(_signal: libc::c_int) {
            // Only async-signal-safe calls, and nothing that the handler's own
            // code could need a wide instruction for.
            // SAFETY: write(2) and _exit(2) are async-signal-safe; MESSAGE is a
            // static byte string, so the pointer and length are valid.
            unsafe {
                libc::write(2, MESSAGE.as_ptr().cast(), MESSAGE.len());
                libc::_exit(i32::from(EXIT_ILLEGAL_INSTRUCTION));
            }
        }
        let handler = on_sigill as extern "C" fn(libc::c_int);
        // SAFETY: the handler is an `extern "C" fn(c_int)` that only makes
        // async-signal-safe calls and never returns, as signal(2) requires.
        unsafe { libc::signal(libc::SIGILL, handler as libc::sighandler_t) };
    }
}
