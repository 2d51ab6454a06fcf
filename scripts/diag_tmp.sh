export LD_LIBRARY_PATH=$PWD/dist
K=bench/anchors/triton_gpu_kernels.py
A="$K -k attn_k -D N_CTX=512 -D HEAD=64 -D BM=64 -D BN=64 --grid 8,4 --arg Q=randn:f32:4x512x64 --arg K=randn:f32:4x512x64 --arg V=randn:f32:4x512x64 --arg O=empty:f32:4x512x64 --arg sm_scale=0.125"
V="$K -k vadd_k -D BLOCK=1024 --grid 1024 --arg x=randn:f32:1048576 --arg y=randn:f32:1048576 --arg o=empty:f32:1048576 --arg n=1048576"
M="$K -k matmul_interp_k -D BM=64 -D BN=64 -D BK=32 -D GM=8 -D K=512 --grid 64 --arg a=randn:f32:512x512 --arg b=randn:f32:512x512 --arg c=empty:f32:512x512 --arg M=512 --arg N=512 --arg sam=512 --arg sak=1 --arg sbk=512 --arg sbn=1 --arg scm=512 --arg scn=1"
for rep in 1 2; do
for m in auto static; do for name in A V M; do for t in 16; do
 TILEVM_PARTITION=$m dist/tilevm run ${!name} --check none --threads $t --repeat 30 --json /tmp/a.json -q
 python3 -c "import json;print('$name $m threads',$t, round(json.load(open('/tmp/a.json'))['seconds']*1e6,1),'us')"
done; done; done; done
dist/tilevm run $A --check none --threads 1 --repeat 10 --json /tmp/a.json -q
python3 -c "import json;print('A 1 thread', round(json.load(open('/tmp/a.json'))['seconds']*1e6,1),'us')"
