"""triton.tools for tilevm: host-made tensor descriptors (tensor_descriptor.TensorDescriptor)."""
