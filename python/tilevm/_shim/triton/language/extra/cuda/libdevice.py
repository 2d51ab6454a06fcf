"""triton.language.extra.cuda.libdevice for host imports: a kernel that uses `libdevice.NAME` gets
the frontend's NAME (docs/language.md); nothing here runs on the host."""
