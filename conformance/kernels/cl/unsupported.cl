// A kernel that builds but that code generation cannot run yet
// (tests/ndrange.rs): device-side events (DeviceEnqueue, which the
// validator accepts) have no lowering, so the build log says the kernel
// cannot run (get_default_queue alone would run).
kernel void with_device_queue(global int *out)
{
    queue_t q = get_default_queue();
    clk_event_t e = create_user_event();
    out[get_global_id(0)] = is_valid_event(e) ? 1 : 0;
    release_event(e);
    (void)q;
}
