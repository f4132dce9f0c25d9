//! Events, markers and barriers (API spec 5.11, 5.12).

use std::ffi::c_void;
use std::sync::Arc;

use clift_runtime::context::Context;
use clift_runtime::error::fail;
use clift_runtime::event::{self, Event};
use clift_runtime::queue::Queue;
use opencl_sys::*;

use crate::args::{self, UserData};
use crate::entry::{cl_entry, cl_entry_ptr};
use crate::{handle, info};

type EventNotify = Option<unsafe extern "C" fn(event: cl_event, event_command_status: cl_int, user_data: *mut c_void)>;

cl_entry! {
    fn clWaitForEvents(num_events: cl_uint, event_list: *const cl_event) {
        // CL_INVALID_VALUE if num_events is zero or event_list is NULL.
        if num_events == 0 || event_list.is_null() {
            return fail(CL_INVALID_VALUE);
        }
        // CL_INVALID_EVENT if event objects specified in event_list are not
        // valid event objects.
        let events = handle::get_list::<Event>(event_list, num_events as usize, CL_INVALID_EVENT)?;
        // CL_INVALID_CONTEXT if events specified in event_list do not belong
        // to the same context.
        if events.iter().any(|e| !Arc::ptr_eq(e.context(), events[0].context())) {
            return fail(CL_INVALID_CONTEXT);
        }
        // CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if the execution
        // status of any of the events in event_list is a negative integer value.
        event::wait_for_all(&events)
    }

    fn clGetEventInfo(event: cl_event, param_name: cl_event_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        let e = handle::get::<Event>(event)?;
        info::write(e.info(param_name), param_value_size, param_value, param_value_size_ret)
    }

    fn clRetainEvent(event: cl_event) {
        handle::retain::<Event>(event)
    }

    fn clReleaseEvent(event: cl_event) {
        handle::release::<Event>(event)
    }

    fn clGetEventProfilingInfo(event: cl_event, param_name: cl_profiling_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        let e = handle::get::<Event>(event)?;
        // CL_PROFILING_INFO_NOT_AVAILABLE if the CL_QUEUE_PROFILING_ENABLE
        // flag is not set for the command-queue, if the execution status of
        // the command identified by event is not CL_COMPLETE or if event is a
        // user event object.
        info::write(e.profiling_info(param_name), param_value_size, param_value, param_value_size_ret)
    }

    fn clSetEventCallback(event: cl_event, command_exec_callback_type: cl_int, pfn_notify: EventNotify, user_data: *mut c_void) {
        let e = handle::get::<Event>(event)?;
        // CL_INVALID_VALUE if pfn_event_notify is NULL or if
        // command_exec_callback_type is not CL_SUBMITTED, CL_RUNNING, or CL_COMPLETE.
        let Some(f) = pfn_notify else {
            return fail(CL_INVALID_VALUE);
        };
        let user = UserData(user_data);
        let addr = event as usize;
        e.add_callback(command_exec_callback_type, Box::new(move |status| {
            let u = user;
            // SAFETY: the application registered `f` for this call shape; the
            // event is alive while its callbacks run (they run from the event).
            unsafe { f(addr as cl_event, status, u.0) };
        }))
    }

    fn clSetUserEventStatus(event: cl_event, execution_status: cl_int) {
        let e = handle::get::<Event>(event)?;
        // CL_INVALID_EVENT if event is not a valid user event object.
        // CL_INVALID_VALUE if the execution_status is not CL_COMPLETE or a
        // negative integer value.
        // CL_INVALID_OPERATION if the execution_status for event has already
        // been changed by a previous call to clSetUserEventStatus.
        e.set_user_status(execution_status)
    }

    fn clEnqueueMarker(command_queue: cl_command_queue, event: *mut cl_event) {
        let q = handle::get::<Queue>(command_queue)?;
        // CL_INVALID_VALUE if event is a NULL value.
        if event.is_null() {
            return fail(CL_INVALID_VALUE);
        }
        let ev = q.enqueue_sync_point(&[], false)?;
        args::event_out(event, ev);
        Ok(())
    }

    fn clEnqueueWaitForEvents(command_queue: cl_command_queue, num_events: cl_uint, event_list: *const cl_event) {
        let q = handle::get::<Queue>(command_queue)?;
        // CL_INVALID_VALUE if num_events is zero or event_list is NULL.
        if num_events == 0 || event_list.is_null() {
            return fail(CL_INVALID_VALUE);
        }
        // CL_INVALID_EVENT if event objects specified in event_list are not valid events.
        let events = handle::get_list::<Event>(event_list, num_events as usize, CL_INVALID_EVENT)?;
        // CL_INVALID_CONTEXT if the context associated with command_queue and
        // events in event_list are not the same.
        q.enqueue_sync_point(&events, true)?;
        Ok(())
    }

    fn clEnqueueBarrier(command_queue: cl_command_queue) {
        let q = handle::get::<Queue>(command_queue)?;
        q.enqueue_sync_point(&[], true)?;
        Ok(())
    }

    fn clEnqueueMarkerWithWaitList(command_queue: cl_command_queue, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        let q = handle::get::<Queue>(command_queue)?;
        let wait = args::wait_list(num_events_in_wait_list, event_wait_list)?;
        let ev = q.enqueue_sync_point(&wait, false)?;
        args::event_out(event, ev);
        Ok(())
    }

    fn clEnqueueBarrierWithWaitList(command_queue: cl_command_queue, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        let q = handle::get::<Queue>(command_queue)?;
        let wait = args::wait_list(num_events_in_wait_list, event_wait_list)?;
        let ev = q.enqueue_sync_point(&wait, true)?;
        args::event_out(event, ev);
        Ok(())
    }
}

cl_entry_ptr! {
    fn clCreateUserEvent(context: cl_context; errcode_ret) {
        let c = handle::get::<Context>(context)?;
        Ok(handle::register(Event::new_user(c)))
    }
}
