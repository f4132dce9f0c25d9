//! Memory objects: buffers, sub-buffers, pipes and images, with their data
//! stores, mappings and destructor callbacks.
//!
//! A memory object's data lives in host memory (a [`Storage`]): clift's own
//! allocation, the application's `host_ptr` (`CL_MEM_USE_HOST_PTR`), or an
//! SVM allocation the `host_ptr` points into. A sub-buffer shares its
//! parent's store at an offset; an image made from a buffer or from another
//! image shares that object's store ([`image`]). The CPU device works on
//! that memory directly, so a map returns a pointer into it and needs no
//! copy.
//!
//! Commands that use a memory object hold an `Arc` to it, so the object (and
//! its destructor callbacks) outlives the application's last release until
//! those commands have finished.

pub mod image;
pub mod image_transfer;
pub mod storage;
pub mod svm;
pub mod transfer;

use std::ffi::c_void;
use std::sync::Arc;

use parking_lot::Mutex;

use crate::context::{Context, DestructorFn};
use crate::error::{fail, ClError, ClResult};
use crate::info::InfoValue;
use crate::object::{handle_of, ApiHeader};
use opencl_sys::*;
use storage::{Bytes, HostPtr, Storage};

/// `CL_DEVICE_MEM_BASE_ADDR_ALIGN` in bytes: every data store starts at a
/// multiple of this, and sub-buffer origins must be multiples of it.
pub const MEM_BASE_ADDR_ALIGN: usize = (crate::device::MEM_BASE_ADDR_ALIGN_BITS / 8) as usize;

/// The kernel-access flags, mutually exclusive.
pub const ACCESS_FLAGS: cl_mem_flags = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
/// The flags about the host pointer.
pub const HOST_PTR_FLAGS: cl_mem_flags = CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;
/// The host-access flags, mutually exclusive.
pub const HOST_ACCESS_FLAGS: cl_mem_flags = CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
/// Every flag a buffer may be created with.
pub const BUFFER_FLAGS: cl_mem_flags = ACCESS_FLAGS | HOST_PTR_FLAGS | HOST_ACCESS_FLAGS;

/// Checks `flags` against the memory-flags table: only bits of `allowed`,
/// at most one kernel-access flag, `CL_MEM_USE_HOST_PTR` without
/// `CL_MEM_ALLOC_HOST_PTR` or `CL_MEM_COPY_HOST_PTR`, at most one host-access
/// flag. `CL_INVALID_VALUE` otherwise.
pub fn check_mem_flags(flags: cl_mem_flags, allowed: cl_mem_flags) -> ClResult<()> {
    if flags & !allowed != 0 {
        return fail(CL_INVALID_VALUE);
    }
    // CL_MEM_READ_WRITE or CL_MEM_WRITE_ONLY and CL_MEM_READ_ONLY are
    // mutually exclusive.
    if (flags & ACCESS_FLAGS).count_ones() > 1 {
        return fail(CL_INVALID_VALUE);
    }
    // CL_MEM_ALLOC_HOST_PTR and CL_MEM_USE_HOST_PTR are mutually exclusive.
    // CL_MEM_COPY_HOST_PTR and CL_MEM_USE_HOST_PTR are mutually exclusive.
    if flags & CL_MEM_USE_HOST_PTR != 0 && flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR) != 0 {
        return fail(CL_INVALID_VALUE);
    }
    // CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_READ_ONLY and
    // CL_MEM_HOST_NO_ACCESS are mutually exclusive.
    if (flags & HOST_ACCESS_FLAGS).count_ones() > 1 {
        return fail(CL_INVALID_VALUE);
    }
    Ok(())
}

/// Where a new buffer's or image's bytes live.
struct NewStore {
    storage: Arc<Storage>,
    /// Where the object's bytes start in `storage`.
    offset: usize,
    /// CL_MEM_HOST_PTR: the application's pointer with
    /// `CL_MEM_USE_HOST_PTR`, else 0.
    host_ptr: usize,
    /// Whether that pointer lies in an SVM allocation.
    uses_svm: bool,
}

/// The data store of a new object of `size` bytes created with `flags`
/// (checked) and `host_ptr` (non-NULL exactly when the flags ask for one):
/// the application's memory with `CL_MEM_USE_HOST_PTR` (the SVM allocation
/// itself when `host_ptr` lies in one, which the object then keeps alive),
/// else a fresh zeroed allocation, filled from `host_ptr` with
/// `CL_MEM_COPY_HOST_PTR`. `svm_too_small` is the error for a `host_ptr`
/// in an SVM allocation with fewer than `size` bytes after it.
///
/// # Safety
///
/// If `host_ptr` is not NULL it must be valid for reads of `size` bytes
/// during the call, and, with `CL_MEM_USE_HOST_PTR`, for reads and writes of
/// `size` bytes until the object's destructor callbacks have run: the
/// OpenCL API contract for `host_ptr`.
unsafe fn new_store(
    context: &Context,
    flags: cl_mem_flags,
    size: usize,
    host_ptr: *mut c_void,
    svm_too_small: cl_int,
) -> ClResult<NewStore> {
    let wants_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR) != 0;
    let svm = if wants_ptr {
        context.svm().find(host_ptr as usize)
    } else {
        None
    };
    if let Some(range) = &svm {
        if !range.contains(host_ptr as usize, size) {
            return fail(svm_too_small);
        }
    }
    if flags & CL_MEM_USE_HOST_PTR != 0 {
        let (storage, offset) = match &svm {
            // The object's store is the SVM allocation itself, kept alive
            // by the object even if the application frees it too early.
            Some(range) => (range.storage().clone(), host_ptr as usize - range.base()),
            None => {
                // SAFETY: this function's contract: with USE_HOST_PTR,
                // `host_ptr` stays valid for `size` bytes until the
                // object's destructor callbacks have run, which is when the
                // object (and so this store) is dropped.
                let s = unsafe { Storage::borrowed(host_ptr, size) };
                (Arc::new(s.ok_or(ClError(CL_INVALID_HOST_PTR))?), 0)
            }
        };
        return Ok(NewStore {
            storage,
            offset,
            host_ptr: host_ptr as usize,
            uses_svm: svm.is_some(),
        });
    }
    let s = Arc::new(Storage::alloc(size, MEM_BASE_ADDR_ALIGN)?);
    if flags & CL_MEM_COPY_HOST_PTR != 0 {
        // SAFETY: this function's contract: `host_ptr` is readable for
        // `size` bytes during the call, and it is only read here.
        let src = unsafe { HostPtr::new(host_ptr) }
            .bytes(size)
            .ok_or(ClError(CL_INVALID_HOST_PTR))?;
        storage::copy(&Bytes::of(&s, 0, size)?, 0, &src, 0, size, None)?;
    }
    Ok(NewStore {
        storage: s,
        offset: 0,
        host_ptr: 0,
        uses_svm: false,
    })
}

/// CL_INVALID_VALUE if `flags`, given for a memory object made from one
/// created with `parent` (a sub-buffer, or an image from a buffer or an
/// image), asks for an access the parent refused: the parent was created
/// with CL_MEM_WRITE_ONLY and flags specifies CL_MEM_READ_WRITE or
/// CL_MEM_READ_ONLY; with CL_MEM_READ_ONLY and flags specifies
/// CL_MEM_READ_WRITE or CL_MEM_WRITE_ONLY; with CL_MEM_HOST_WRITE_ONLY and
/// flags specifies CL_MEM_HOST_READ_ONLY; with CL_MEM_HOST_READ_ONLY and
/// flags specifies CL_MEM_HOST_WRITE_ONLY; with CL_MEM_HOST_NO_ACCESS and
/// flags specifies CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_WRITE_ONLY.
pub(crate) fn check_inherited_flags(parent: cl_mem_flags, flags: cl_mem_flags) -> ClResult<()> {
    let conflicts = [
        (CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY),
        (CL_MEM_READ_ONLY, CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY),
        (CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY),
        (CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_WRITE_ONLY),
        (CL_MEM_HOST_NO_ACCESS, CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY),
    ];
    if conflicts.iter().any(|&(p, f)| parent & p != 0 && flags & f != 0) {
        return fail(CL_INVALID_VALUE);
    }
    Ok(())
}

/// What kind of memory object this is.
enum Kind {
    /// A buffer made by clCreateBuffer(WithProperties).
    Buffer,
    /// A region of a buffer.
    SubBuffer { parent: Arc<MemObject> },
    /// A pipe; its store is laid out as `clift_jit::pipe` says (a header with
    /// the counters, a state word per packet, the packets).
    Pipe { packet_size: u32, max_packets: u32 },
    /// An image: its shape, format and the descriptor kernels see.
    Image(Box<image::Image>),
}

/// One outstanding map of a buffer or of one of its sub-buffers, or of an
/// image.
#[derive(Debug, Clone, Copy)]
struct Mapping {
    /// The object the map was made on (its address).
    owner: usize,
    /// The pointer handed to the application and the length of the bytes
    /// the region spans.
    addr: usize,
    len: usize,
    /// An image map's region in texels: origin and size in (x, y, z), the
    /// layer of an array being its last coordinate.
    texels: Option<([usize; 3], [usize; 3])>,
    /// Whether the region was mapped for writing.
    write: bool,
}

impl Mapping {
    /// Whether two maps of the same object (or of sub-buffers of one
    /// buffer) share a byte: image regions box by box, others by the bytes
    /// they span.
    fn overlaps(&self, other: &Mapping) -> bool {
        match (self.texels, other.texels) {
            (Some((ao, ar)), Some((bo, br))) => {
                (0..3).all(|k| ao[k] < bo[k].saturating_add(br[k]) && bo[k] < ao[k].saturating_add(ar[k]))
            }
            _ => storage::ranges_overlap(self.addr, self.len, other.addr, other.len),
        }
    }
}

/// A memory object (buffer, sub-buffer, pipe or image).
pub struct MemObject {
    header: ApiHeader,
    context: Arc<Context>,
    kind: Kind,
    /// CL_MEM_FLAGS: as created, plus what a sub-buffer inherits.
    flags: cl_mem_flags,
    storage: Arc<Storage>,
    /// Where this object's data starts in `storage`.
    offset: usize,
    size: usize,
    /// CL_MEM_HOST_PTR (0 for NULL).
    host_ptr: usize,
    uses_svm: bool,
    /// CL_MEM_PROPERTIES: the list given to clCreateBufferWithProperties or
    /// clCreateImageWithProperties (with its terminator), `None` when there
    /// was none.
    properties: Option<Vec<u64>>,
    /// Outstanding maps of this buffer and its sub-buffers (kept on the
    /// buffer, so maps of overlapping sub-buffers can be checked).
    mappings: Mutex<Vec<Mapping>>,
    destructors: Mutex<Vec<DestructorFn>>,
}
crate::api_object!(MemObject);

impl std::fmt::Debug for MemObject {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MemObject")
            .field("type", &self.mem_type())
            .field("flags", &self.flags)
            .field("size", &self.size)
            .finish()
    }
}

impl MemObject {
    fn new(
        context: &Arc<Context>,
        kind: Kind,
        flags: cl_mem_flags,
        storage: Arc<Storage>,
        offset: usize,
        size: usize,
    ) -> MemObject {
        MemObject {
            header: ApiHeader::new(),
            context: context.clone(),
            kind,
            flags,
            storage,
            offset,
            size,
            host_ptr: 0,
            uses_svm: false,
            properties: None,
            mappings: Mutex::new(Vec::new()),
            destructors: Mutex::new(Vec::new()),
        }
    }

    /// clCreateBuffer and clCreateBufferWithProperties. `properties` is the
    /// property list without its terminator, `None` for NULL.
    ///
    /// # Safety
    ///
    /// If `host_ptr` is not NULL it must be valid for reads of `size` bytes
    /// during the call, and, with `CL_MEM_USE_HOST_PTR`, for reads and writes
    /// of `size` bytes until the buffer's destructor callbacks have run: the
    /// OpenCL API contract for `host_ptr`.
    pub unsafe fn create_buffer(
        context: &Arc<Context>,
        properties: Option<&[u64]>,
        flags: cl_mem_flags,
        size: usize,
        host_ptr: *mut c_void,
    ) -> ClResult<Arc<MemObject>> {
        // CL_INVALID_PROPERTY if a property name in properties is not a
        // supported property name (OpenCL defines none for buffers).
        if properties.is_some_and(|p| !p.is_empty()) {
            return fail(CL_INVALID_PROPERTY);
        }
        // CL_INVALID_VALUE if values specified in flags are not valid as
        // defined in the Memory Flags table.
        check_mem_flags(flags, BUFFER_FLAGS)?;
        // CL_INVALID_BUFFER_SIZE if size is zero, or if size is greater than
        // CL_DEVICE_MAX_MEM_ALLOC_SIZE for all devices in context.
        if size == 0 || size as u64 > context.max_mem_alloc_size() {
            return fail(CL_INVALID_BUFFER_SIZE);
        }
        let wants_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR) != 0;
        // CL_INVALID_HOST_PTR if host_ptr is NULL, and CL_MEM_USE_HOST_PTR or
        // CL_MEM_COPY_HOST_PTR are set in flags; if host_ptr is not NULL but
        // CL_MEM_COPY_HOST_PTR or CL_MEM_USE_HOST_PTR are not set in flags.
        if host_ptr.is_null() == wants_ptr {
            return fail(CL_INVALID_HOST_PTR);
        }
        // CL_INVALID_BUFFER_SIZE if CL_MEM_USE_HOST_PTR or
        // CL_MEM_COPY_HOST_PTR is set in flags, and host_ptr is a pointer
        // returned by clSVMAlloc, and size is greater than the size passed
        // to clSVMAlloc.
        // SAFETY: this function's contract, which is `new_store`'s.
        let store = unsafe { new_store(context, flags, size, host_ptr, CL_INVALID_BUFFER_SIZE) }?;
        let mut mem = MemObject::new(context, Kind::Buffer, flags, store.storage, store.offset, size);
        mem.host_ptr = store.host_ptr;
        mem.uses_svm = store.uses_svm;
        // With a properties argument, CL_MEM_PROPERTIES returns it as given,
        // terminator included.
        mem.properties = properties.map(|p| p.iter().copied().chain([0]).collect());
        Ok(Arc::new(mem))
    }

    /// clCreateSubBuffer with CL_BUFFER_CREATE_TYPE_REGION.
    pub fn create_sub_buffer(
        self: &Arc<Self>,
        flags: cl_mem_flags,
        origin: usize,
        size: usize,
    ) -> ClResult<Arc<MemObject>> {
        // CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object or is
        // a sub-buffer object.
        if !matches!(self.kind, Kind::Buffer) {
            return fail(CL_INVALID_MEM_OBJECT);
        }
        // CL_INVALID_VALUE if values specified in flags are not valid; if
        // flags specifies CL_MEM_USE_HOST_PTR or CL_MEM_ALLOC_HOST_PTR or
        // CL_MEM_COPY_HOST_PTR.
        check_mem_flags(flags, ACCESS_FLAGS | HOST_ACCESS_FLAGS)?;
        let parent = self.flags;
        check_inherited_flags(parent, flags)?;
        // CL_INVALID_VALUE if the region specified by the cl_buffer_region
        // structure passed in buffer_create_info is out of bounds in buffer.
        storage::check_range(origin, size, self.size)?;
        // CL_INVALID_BUFFER_SIZE if the size field of the cl_buffer_region
        // structure passed in buffer_create_info is zero.
        if size == 0 {
            return fail(CL_INVALID_BUFFER_SIZE);
        }
        // CL_MISALIGNED_SUB_BUFFER_OFFSET if there are no devices in context
        // associated with buffer for which the origin field of the
        // cl_buffer_region structure passed in buffer_create_info is aligned
        // to the CL_DEVICE_MEM_BASE_ADDR_ALIGN value.
        if !origin.is_multiple_of(MEM_BASE_ADDR_ALIGN) {
            return fail(CL_MISALIGNED_SUB_BUFFER_OFFSET);
        }
        // If the CL_MEM_READ_WRITE, CL_MEM_READ_ONLY or CL_MEM_WRITE_ONLY
        // values are not specified in flags, they are inherited from the
        // corresponding memory access qualifiers associated with buffer. The
        // CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR, and CL_MEM_COPY_HOST_PTR
        // values cannot be specified in flags but are inherited. If the
        // CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY, or
        // CL_MEM_HOST_NO_ACCESS values are not specified in flags, they are
        // inherited.
        let mut eff = flags | (parent & HOST_PTR_FLAGS);
        if flags & ACCESS_FLAGS == 0 {
            eff |= parent & ACCESS_FLAGS;
        }
        if flags & HOST_ACCESS_FLAGS == 0 {
            eff |= parent & HOST_ACCESS_FLAGS;
        }
        let mut mem = MemObject::new(
            &self.context,
            Kind::SubBuffer { parent: self.clone() },
            eff,
            self.storage.clone(),
            self.offset + origin,
            size,
        );
        // If buffer is created with CL_MEM_USE_HOST_PTR, the host_ptr
        // associated with the buffer object returned is host_ptr + origin.
        if self.host_ptr != 0 {
            mem.host_ptr = self.host_ptr + origin;
        }
        mem.uses_svm = self.uses_svm;
        Ok(Arc::new(mem))
    }

    /// clCreatePipe. The caller has checked that `properties` is NULL.
    pub fn create_pipe(
        context: &Arc<Context>,
        flags: cl_mem_flags,
        packet_size: u32,
        max_packets: u32,
    ) -> ClResult<Arc<MemObject>> {
        // Only CL_MEM_READ_WRITE and CL_MEM_HOST_NO_ACCESS can be specified
        // when creating a pipe object. CL_INVALID_VALUE if values specified in
        // flags are not as defined above.
        if flags & !(CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS) != 0 {
            return fail(CL_INVALID_VALUE);
        }
        // CL_INVALID_PIPE_SIZE if pipe_packet_size is 0 or the
        // pipe_packet_size exceeds CL_DEVICE_PIPE_MAX_PACKET_SIZE value for
        // all devices in context or if pipe_max_packets is 0.
        if packet_size == 0 || packet_size > crate::device::PIPE_MAX_PACKET_SIZE || max_packets == 0 {
            return fail(CL_INVALID_PIPE_SIZE);
        }
        // CL_MEM_OBJECT_ALLOCATION_FAILURE if there is a failure to allocate
        // memory for the pipe object.
        let total = clift_jit::pipe::store_size(packet_size, max_packets);
        if total > context.max_mem_alloc_size() {
            return fail(CL_MEM_OBJECT_ALLOCATION_FAILURE);
        }
        let total = usize::try_from(total).map_err(|_| ClError(CL_MEM_OBJECT_ALLOCATION_FAILURE))?;
        // A zeroed store with the header's sizes is an empty pipe.
        let storage = Arc::new(Storage::alloc(total, MEM_BASE_ADDR_ALIGN)?);
        let header = clift_jit::pipe::header(packet_size, max_packets);
        storage::write(&Bytes::of(&storage, 0, header.len())?, 0, &header)?;
        Ok(Arc::new(MemObject::new(
            context,
            Kind::Pipe {
                packet_size,
                max_packets,
            },
            flags,
            storage,
            0,
            total,
        )))
    }

    /// The object's context.
    pub fn context(&self) -> &Arc<Context> {
        &self.context
    }

    /// CL_MEM_FLAGS (a sub-buffer's include what it inherited).
    pub fn flags(&self) -> cl_mem_flags {
        self.flags
    }

    /// Size in bytes.
    pub fn size(&self) -> usize {
        self.size
    }

    /// CL_MEM_TYPE.
    pub fn mem_type(&self) -> cl_mem_object_type {
        match &self.kind {
            Kind::Buffer | Kind::SubBuffer { .. } => CL_MEM_OBJECT_BUFFER,
            Kind::Pipe { .. } => CL_MEM_OBJECT_PIPE,
            Kind::Image(i) => i.image_type(),
        }
    }

    /// Whether this is a buffer or a sub-buffer.
    pub fn is_buffer(&self) -> bool {
        matches!(self.kind, Kind::Buffer | Kind::SubBuffer { .. })
    }

    /// Whether this is a pipe.
    pub fn is_pipe(&self) -> bool {
        matches!(self.kind, Kind::Pipe { .. })
    }

    /// Whether this is an image (of any type).
    pub fn is_image(&self) -> bool {
        matches!(self.kind, Kind::Image(_))
    }

    /// An image's shape and format, `None` for other objects.
    pub fn image(&self) -> Option<&image::Image> {
        match &self.kind {
            Kind::Image(i) => Some(i),
            _ => None,
        }
    }

    /// An image's descriptor: what a kernel's image argument points to.
    /// Its address stays the same while the image lives (the object holds
    /// it boxed), and its `data` points into the image's store, which the
    /// image keeps alive; a command holding an `Arc` of the image may hand
    /// `image_desc()? as *const ImageDesc` to generated code for as long
    /// as it holds it. `None` for other objects.
    pub fn image_desc(&self) -> Option<&clift_builtins::image::ImageDesc> {
        self.image().map(|i| i.desc())
    }

    /// An image's format (CL_IMAGE_FORMAT), `None` for other objects.
    pub fn image_format(&self) -> Option<clift_builtins::image::Format> {
        self.image().map(|i| i.format())
    }

    /// How kernels may use the object: its `CL_MEM_READ_WRITE`,
    /// `CL_MEM_READ_ONLY` or `CL_MEM_WRITE_ONLY` flag, `CL_MEM_READ_WRITE`
    /// when it was created with none ("This is the default"); an image made
    /// from another memory object has the flag it inherited.
    pub fn kernel_access(&self) -> cl_mem_flags {
        match self.flags & ACCESS_FLAGS {
            0 => CL_MEM_READ_WRITE,
            a => a,
        }
    }

    /// The buffer a sub-buffer was made from.
    pub fn parent(&self) -> Option<&Arc<MemObject>> {
        match &self.kind {
            Kind::SubBuffer { parent } => Some(parent),
            _ => None,
        }
    }

    /// Packet size and capacity of a pipe.
    pub fn pipe_params(&self) -> Option<(u32, u32)> {
        match self.kind {
            Kind::Pipe {
                packet_size,
                max_packets,
            } => Some((packet_size, max_packets)),
            _ => None,
        }
    }

    /// CL_MEM_OFFSET: a sub-buffer's origin in its buffer (0 otherwise).
    pub fn origin(&self) -> usize {
        match &self.kind {
            Kind::SubBuffer { parent } => self.offset - parent.offset,
            _ => 0,
        }
    }

    /// The data store this object's bytes live in, and where they start in
    /// it. Objects with the same store can alias each other.
    pub fn storage(&self) -> (&Arc<Storage>, usize) {
        (&self.storage, self.offset)
    }

    /// The object's bytes.
    pub fn bytes(&self) -> ClResult<Bytes> {
        Bytes::of(&self.storage, self.offset, self.size)
    }

    /// The host address of the object's first byte (what kernels and native
    /// kernels see as its global-memory pointer).
    pub fn host_address(&self) -> *mut c_void {
        (self.storage.addr() + self.offset) as *mut c_void
    }

    /// Whether the host may read the object (not HOST_WRITE_ONLY or
    /// HOST_NO_ACCESS).
    pub fn host_readable(&self) -> bool {
        self.flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS) == 0
    }

    /// Whether the host may write the object (not HOST_READ_ONLY or
    /// HOST_NO_ACCESS).
    pub fn host_writable(&self) -> bool {
        self.flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS) == 0
    }

    /// clSetMemObjectDestructorCallback: `f` runs when the object is
    /// destroyed, before callbacks registered earlier.
    pub fn add_destructor(&self, f: DestructorFn) {
        self.destructors.lock().push(f);
    }

    /// The object that keeps the map records: the buffer or image itself,
    /// or a sub-buffer's parent.
    fn map_root(&self) -> &MemObject {
        match &self.kind {
            Kind::SubBuffer { parent } => parent,
            _ => self,
        }
    }

    fn id(&self) -> usize {
        self as *const MemObject as usize
    }

    /// CL_MEM_MAP_COUNT.
    pub fn map_count(&self) -> u32 {
        let id = self.id();
        self.map_root().mappings.lock().iter().filter(|m| m.owner == id).count() as u32
    }

    /// Records a map of `len` bytes at `addr` (of an image: the texels
    /// `texels` holds, as origin and region). `CL_INVALID_OPERATION` if it
    /// would overlap a region of this object or its sub-buffers mapped for
    /// writing, or is for writing and overlaps any mapped region.
    pub(crate) fn add_mapping(
        &self,
        addr: usize,
        len: usize,
        texels: Option<([usize; 3], [usize; 3])>,
        write: bool,
    ) -> ClResult<()> {
        let mut maps = self.map_root().mappings.lock();
        let new = Mapping {
            owner: self.id(),
            addr,
            len,
            texels,
            write,
        };
        // Mapping overlapped regions in a memory object and/or associated
        // memory objects (sub-buffer objects) for writing is an error and will
        // result in CL_INVALID_OPERATION.
        if maps.iter().any(|m| (write || m.write) && m.overlaps(&new)) {
            return fail(CL_INVALID_OPERATION);
        }
        maps.push(new);
        Ok(())
    }

    /// Whether `addr` was returned by a map of this object not yet unmapped.
    pub(crate) fn has_mapping(&self, addr: usize) -> bool {
        let id = self.id();
        self.map_root()
            .mappings
            .lock()
            .iter()
            .any(|m| m.owner == id && m.addr == addr)
    }

    /// Forgets one map of this object at `addr`; `CL_INVALID_VALUE` if there
    /// is none.
    pub(crate) fn remove_mapping(&self, addr: usize) -> ClResult<()> {
        let id = self.id();
        let mut maps = self.map_root().mappings.lock();
        match maps.iter().rposition(|m| m.owner == id && m.addr == addr) {
            Some(i) => {
                maps.remove(i);
                Ok(())
            }
            None => fail(CL_INVALID_VALUE),
        }
    }

    /// clGetMemObjectInfo.
    pub fn info(&self, param: cl_mem_info) -> ClResult<InfoValue> {
        Ok(match param {
            CL_MEM_TYPE => InfoValue::u32(self.mem_type()),
            CL_MEM_FLAGS => InfoValue::u64(self.flags),
            CL_MEM_SIZE => InfoValue::usize(self.size),
            CL_MEM_HOST_PTR => InfoValue::handle(self.host_ptr),
            CL_MEM_MAP_COUNT => InfoValue::u32(self.map_count()),
            CL_MEM_REFERENCE_COUNT => InfoValue::u32(self.header.ref_count()),
            CL_MEM_CONTEXT => InfoValue::handle(handle_of(&self.context)),
            // A sub-buffer's buffer; an image's image_desc->mem_object.
            CL_MEM_ASSOCIATED_MEMOBJECT => InfoValue::handle(
                self.parent()
                    .or_else(|| self.image().and_then(|i| i.source()))
                    .map_or(0, handle_of),
            ),
            CL_MEM_OFFSET => InfoValue::usize(self.origin()),
            CL_MEM_USES_SVM_POINTER => InfoValue::bool(self.uses_svm),
            CL_MEM_PROPERTIES => InfoValue::u64s(self.properties.as_deref().unwrap_or(&[])),
            _ => return fail(CL_INVALID_VALUE),
        })
    }

    /// clGetPipeInfo.
    pub fn pipe_info(&self, param: cl_pipe_info) -> ClResult<InfoValue> {
        // CL_INVALID_MEM_OBJECT if pipe is a not a valid pipe object.
        let Some((packet_size, max_packets)) = self.pipe_params() else {
            return fail(CL_INVALID_MEM_OBJECT);
        };
        Ok(match param {
            CL_PIPE_PACKET_SIZE => InfoValue::u32(packet_size),
            CL_PIPE_MAX_PACKETS => InfoValue::u32(max_packets),
            // properties must be NULL, so there are none to return.
            CL_PIPE_PROPERTIES => InfoValue::isizes(&[]),
            _ => return fail(CL_INVALID_VALUE),
        })
    }
}

impl Drop for MemObject {
    fn drop(&mut self) {
        // The registered callback functions are called in the reverse order
        // in which they were registered. The registered callback functions
        // are called and then the memory object's resources are freed.
        let list = std::mem::take(&mut *self.destructors.lock());
        for f in list.into_iter().rev() {
            f();
        }
    }
}
