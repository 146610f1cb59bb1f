# Resource object code (Python 3)
# Created by: object code
# Created by: The Resource Compiler for Qt version 6.11.3
# WARNING! All changes made in this file will be lost!

from PySide6 import QtCore

qt_resource_data = b"\
\x00\x00\x05\xd9\
<\
h3>Follow-up: bf\
loat16 and float\
8</h3>\x0a<p>bfloat\
16 has float32's\
 range but 8 sig\
nificand bits: n\
ear |z| = 64 its\
 values are 0.5 \
apart, so a logi\
t rounds by up t\
o 0.25, and\x0asinc\
e a weight depen\
ds on two logits\
 (its own and th\
e largest) it ca\
n move by up to \
e<sup>0.5</sup> \
\xe2\x88\x92 1 \xe2\x89\x88 65 %.\x0a\
float8 E4M3's la\
rgest value is 4\
48: <i>ml-dtypes\
</i>' cast turns\
 anything beyond\
 it into NaN, wh\
ile Transformer-\
Engine-style cas\
ts\x0asaturate to \xc2\
\xb1448; E5M2 reach\
es 57 344 (beyon\
d: inf) (Micikev\
icius et al. 202\
2).\x0aThe model ro\
unds the <i>logi\
ts</i> to the ty\
pe and runs the \
softmax in float\
32: an unfused p\
ipeline. Fused k\
ernels (FlashAtt\
ention 2/3)\x0akeep\
 S = QK\xe1\xb5\x80 in fl\
oat32 accumulato\
rs and round q, \
k and the weight\
s instead; none \
stores logits in\
 E4M3, so the E4\
M3 columns model\
\x0ano kernel. The \
<i>kernel</i> co\
lumns model a bf\
loat16 fused ker\
nel (q, k and p \
rounded, S and t\
he softmax in fl\
oat32, independe\
nt q and k).\x0aThe\
 conclusion is t\
he same: at d<su\
b>k</sub> = 1024\
 its error is {k\
ernel_raw_1024} \
raw against {ker\
nel_scaled_1024}\
 with \xc3\xb7\xe2\x88\x9ad<sub\
>k</sub>,\x0abecaus\
e a logit moves \
by about |z| tim\
es the rounding \
of q and k, and \
the error grows \
with the logits.\
</p>\x0a<p>Raw logi\
ts grow like \xe2\x88\x9a\
d<sub>k</sub>, a\
nd so does their\
 rounding error;\
 \xc3\xb7\xe2\x88\x9ad<sub>k</s\
ub> keeps |z| ne\
ar 1 and the err\
or small at ever\
y head size.\x0aTab\
le: the largest \
relative weight \
error of a query\
 row (weights \xe2\x89\
\xa5 0.1/n), 90th p\
ercentile over r\
ows, against flo\
at64.\x0a<code>sqrt\
dk-gui stats --d\
type bfloat16</c\
ode> prints it t\
oo.</p>\x0a\
\x00\x00\x0b\x8f\
<\
h3>Follow-up: wh\
at interviewers \
ask</h3>\x0a<p><b>W\
hy \xe2\x88\x9ad<sub>k</s\
ub>, and why \xcf\x83 \
\xe2\x89\x88 1?</b> \xc3\xb7\xe2\x88\x9a\
d<sub>k</sub> is\
 fan-in normalis\
ation (LeCun et \
al. 1998; Glorot\
 &amp; Bengio 20\
10) applied to t\
he\x0abilinear form\
 q\xc2\xb7k: a sum of \
d<sub>k</sub> in\
dependent produc\
ts has variance \
d<sub>k</sub>, s\
o it is divided \
by the square ro\
ot of its fan-in\
, as a\x0alinear la\
yer's weights ar\
e. The target \xcf\x83\
 = 1 is a conven\
tion: W<sub>Q</s\
ub> and W<sub>K<\
/sub> can rescal\
e it, and over 6\
4 keys softmax s\
tays\x0aresponsive \
from \xcf\x83 = 1 to 4\
 (median \xe2\x80\x96J\xe2\x80\x96\
<sub>F</sub> {te\
mp_jac_1} at \xcf\x83 \
= 1, {temp_jac_4\
} at \xcf\x83 = 4, {te\
mp_jac_8} at \xcf\x83 \
= 8; the\x0a<a href\
=\x22scenario:sigma\
_dial\x22>\xcf\x83 dial</\
a>). What matter\
s is that \xcf\x83 doe\
s not depend on \
d<sub>k</sub>: w\
ith \xc3\xb7\xe2\x88\x9ad<sub>k\
</sub> the media\
n \xe2\x80\x96J\xe2\x80\x96<sub>F<\
/sub>\x0ais {step4_\
jac} at every he\
ad size from 4 t\
o 4096.</p>\x0a<p><\
b>Why not fold 1\
/\xe2\x88\x9ad<sub>k</sub\
> into W<sub>Q</\
sub>'s initialis\
ation?</b> At in\
itialisation the\
 forward pass is\
 identical. The \
optimisation is \
not:\x0awith c = 1/\
\xe2\x88\x9ad<sub>k</sub>\
, the gradient o\
f the explicit W\
<sub>Q</sub> is \
c\xc2\xb7G and that of\
 the folded W<su\
b>Q</sub>\xe2\x80\xb2 is \
G, while the log\
its feel\x0aW<sub>Q\
</sub> through c\
 and W<sub>Q</su\
b>\xe2\x80\xb2 directly. \
So one SGD step \
through W<sub>Q<\
/sub> moves the \
logits <b>d<sub>\
k</sub> times</b\
> more when fold\
ed;\x0aAdam's steps\
 have the same s\
ize whatever the\
 gradient's scal\
e, so folded the\
y move them <b>\xe2\
\x88\x9ad<sub>k</sub> \
times</b> more. \
W<sub>K</sub> is\
 unaffected.\x0aThe\
 table below mea\
sures one step o\
n the Training l\
ab's own model. \
A learning rate \
tuned for one fo\
rm is wrong for \
the other: why t\
he lab\x0asweeps th\
e rate instead o\
f sharing one, a\
nd the parametri\
sation argument \
behind <a href=\x22\
scenario:mup\x22>\xce\xbc\
P</a>.</p>\x0a<p><b\
>What does the b\
ackward pass do \
with the scale?<\
/b> \xe2\x88\x82L/\xe2\x88\x82z = \
J \xe2\x88\x82L/\xe2\x88\x82p depe\
nds on the logit\
s only; \xe2\x88\x82L/\xe2\x88\x82\
q = c K\xe1\xb5\x80 \xe2\x88\x82L/\
\xe2\x88\x82z carries c i\
tself.\x0aSo at sma\
ll d<sub>k</sub>\
, where both sof\
tmaxes respond, \
raw gradients ar\
e larger: the me\
dian \xe2\x80\x96\xe2\x88\x82L/\xe2\x88\x82\
q\xe2\x80\x96 raw over \xc3\xb7\
\xe2\x88\x9ad<sub>k</sub>\
 is {backward_ra\
w_4} at\x0ad<sub>k<\
/sub> = 4 and {b\
ackward_raw_16} \
at 16, more than\
 \xe2\x88\x9ad<sub>k</sub\
> because raw's \
wider logits als\
o sit nearer sof\
tmax's most resp\
onsive\x0aspread. F\
rom d<sub>k</sub\
> \xe2\x89\x88 {step3_cro\
ssover} on, satu\
ration wins and \
raw's gradient c\
ollapses (step 3\
).</p>\x0a<p><b>Ini\
tialisation or t\
raining?</b> \xc3\xb7\xe2\
\x88\x9ad<sub>k</sub> \
fixes the logits\
' spread at init\
ialisation only.\
 Training aligns\
 q with its keys\
 and the\x0alogits \
grow. In the Tra\
ining lab's runs\
 at SGD rate 5 (\
the largest |log\
it| of a batch, \
d<sub>k</sub> = \
256), <!-- lab-c\
laims -->raw log\
its grow\x0afrom 55\
\xe2\x80\x9371 at the fir\
st step to 10\xe2\x81\xb4\
\xe2\x80\x9310\xe2\x81\xb6 by step\
 400<!-- /lab-cl\
aims -->, and ev\
en <!-- lab-clai\
ms -->\xc3\xb7\xe2\x88\x9ad<sub\
>k</sub>'s go fr\
om 3.4\xe2\x80\x934.4 to\x0a\
16\xe2\x80\x9323<!-- /lab\
-claims -->. At \
scale this growt\
h destabilises t\
raining (Dehghan\
i et al. 2023, V\
iT-22B; Wortsman\
 et al.\x0a2023) an\
d collapses atte\
ntion entropy (Z\
hai et al. 2023)\
; <a href=\x22scena\
rio:qk_norm\x22>QK-\
normalisation</a\
> and \xcf\x83Reparam \
bound it.</p>\x0a\
\x00\x00\x04]\
<\
h3>Trap: a scale\
 derived from th\
e sequence lengt\
h</h3>\x0a<p>Each l\
ogit is one dot \
product of d<sub\
>k</sub> terms; \
the number of ke\
ys n does not en\
ter its variance\
. <i>Replacing</\
i> 1/\xe2\x88\x9ad<sub>k<\
/sub> by\x0a1/\xe2\x88\x9an \
gives \xcf\x83 = \xe2\x88\x9a(d\
<sub>k</sub>/n):\
 too wide for sh\
ort contexts, to\
o flat for long \
ones. Its n = 25\
6 row shows \xcf\x83 \xe2\
\x89\x88 1 only becaus\
e there n = d<su\
b>k</sub>.</p>\x0a<\
p>What n does ch\
ange is the comp\
etition: the sam\
e \xcf\x83 spreads wei\
ght thinner over\
 more keys (medi\
an max p {seqlen\
_maxp_16} at n =\
 16,\x0a{seqlen_max\
p_1024} at 1024)\
. So long-contex\
t models <i>mult\
iply</i> the \xc3\xb7\xe2\
\x88\x9ad<sub>k</sub> \
logits by a slow\
ly growing facto\
r: log n through\
out\x0a(Chiang &amp\
; Cholak 2022; s\
calable-softmax,\
 Nakanishi 2025)\
, or only past t\
he training leng\
th L (Qwen's log\
<sub>L</sub> n; \
YaRN's 0.1\xc2\xb7ln s\
 + 1\x0aon q and k \
each, s the cont\
ext-extension ra\
tio, Peng et al.\
 2023; Llama 4 a\
t long positions\
). The last colu\
mn multiplies by\
 log<sub>64</sub\
> n past n = 64 \
(max p {seqlen_m\
axp_logn_1024} a\
t n = 1024).</p>\
\x0a<p>Practice: sp\
ot this trap in \
code, <a href=\x22b\
ug:bug_seq_len\x22>\
A scale from the\
 context length<\
/a> (practice mo\
de, I).</p>\x0a\
\x00\x00\x03\x8c\
<\
h3>Follow-up: lo\
ng context \xe2\x80\x94 \xc3\
\xb7\xe2\x88\x9an versus \xc3\x97 \
log n</h3>\x0a<p>n \
can reach 131 07\
2 keys: above 10\
24 the keys are \
streamed in bloc\
ks for a sample \
of rows. At a fi\
xed \xcf\x83 attention\
 <b>dilutes</b>:\
\x0amax weight fall\
s, entropy grows\
 like log n (\xcf\x83 \
= 1: H \xe2\x89\x88 log n\
 \xe2\x88\x92 \xc2\xbd).</p>\x0a<p\
><b>Bug:</b> \xc3\xb7\xe2\
\x88\x9an instead of \xc3\
\xb7\xe2\x88\x9ad<sub>k</sub\
> \xe2\x80\x94 \xcf\x83 = \xe2\x88\x9a(d\
<sub>k</sub>/n) \
shrinks and atte\
ntion goes unifo\
rm. <b>Technique\
:</b> keep \xc3\xb7\xe2\x88\x9a\
d<sub>k</sub> an\
d\x0amultiply by ma\
x(1, ln n / ln 6\
4) \xe2\x80\x94 Qwen's lo\
gn attention wit\
h a training len\
gth of 64. Scala\
ble-softmax mult\
iplies by s\xc2\xb7ln \
n\x0aeverywhere, wi\
th no max(1, \xc2\xb7)\
 (Nakanishi 2025\
; Chiang &amp; C\
holak 2022 use l\
og n); YaRN mult\
iplies q and k e\
ach by 0.1\xc2\xb7ln s\
 + 1,\x0awhere s is\
 the context-ext\
ension ratio, so\
 its logits grow\
 by (0.1\xc2\xb7ln s +\
 1)\xc2\xb2. Here \xcf\x83 g\
rows to 2.83 at \
131 072 keys, en\
ough to keep\x0athe\
 largest weight \
from diluting th\
e way plain \xc3\xb7\xe2\x88\
\x9ad<sub>k</sub>'s\
 does.</p>\x0a\
\x00\x00\x03\xa7\
<\
h3>Follow-up: te\
mperature</h3>\x0a<\
p>A temperature \
\xcf\x84 divides the l\
ogits, so \xcf\x84 and\
 the scale multi\
ply into one <b>\
effective spread\
</b> \xcf\x83 = \xe2\x88\x9ad<s\
ub>k</sub> \xc2\xb7 sc\
ale / \xcf\x84.\x0aDividi\
ng raw logits by\
 \xe2\x88\x9ad<sub>k</sub\
> is \xcf\x84 = \xe2\x88\x9ad<s\
ub>k</sub>; a fi\
xed \xcf\x84 fits one \
head size only.<\
/p>\x0a<p>What matt\
ers is \xcf\x83, for t\
he number of key\
s n. With 64 key\
s (medians over \
rows): \xcf\x83 = 1 gi\
ves max p {temp_\
maxp_1}, \xe2\x80\x96J\xe2\x80\x96\
<sub>F</sub> {te\
mp_jac_1};\x0anear \
\xcf\x83 = 4 it is mos\
t responsive, ma\
x p {temp_maxp_4\
}, \xe2\x80\x96J\xe2\x80\x96<sub>F\
</sub> {temp_jac\
_4}, only {temp_\
sat_4} of rows s\
aturated; satura\
tion begins near\
\x0a\xcf\x83 \xe2\x89\x88 8 ({temp\
_sat_8} of rows,\
 \xe2\x80\x96J\xe2\x80\x96<sub>F</\
sub> {temp_jac_8\
}). More keys mo\
ve the window up\
 slowly: at \xcf\x83 =\
 8 with 1024 key\
s {temp_sat_8_n1\
024} saturate.\x0aT\
he table uses th\
e current n.</p>\
\x0a<p>The preset, \
\xcf\x84 = 8 at d<sub>\
k</sub> = 1024, \
is \xcf\x83 = 4: respo\
nsive, not satur\
ating. The whole\
 curve, for any \
n:\x0athe <a href=\x22\
scenario:sigma_d\
ial\x22>\xcf\x83 dial</a>\
.</p>\x0a\
\x00\x00\x04\xc2\
<\
h3>Follow-up: wh\
y \xcf\x83 \xe2\x89\x88 1 and n\
ot 3?</h3>\x0a<p>Th\
e softmax only s\
ees the spread \xcf\
\x83 of its logits.\
 The <b>\xcf\x83 dial<\
/b> (tab <b>5 \xc2\xb7\
 \xcf\x83 dial</b>, ke\
y <b>D</b>) plot\
s, for n keys, t\
he median\x0amax we\
ight, entropy / \
log n and \xe2\x80\x96J\xe2\x80\
\x96<sub>F</sub> of\
 Gaussian logits\
 of spread \xcf\x83 (8\
 seeds, 10\xe2\x80\x9390 \
% band): curves \
of n alone.\x0aAt n\
 = 64, \xe2\x80\x96J\xe2\x80\x96<s\
ub>F</sub> peaks\
 near \xcf\x83 \xe2\x89\x88 3\xe2\x80\
\x934 and collapses\
 beyond \xcf\x83 \xe2\x89\x88 8\
; for \xcf\x83 \xe2\x89\xaa 1 a\
ttention is unif\
orm.</p>\x0a<p>Each\
 scaling is a po\
int on it: raw l\
ogits sit at \xcf\x83 \
= \xe2\x88\x9ad<sub>k</su\
b> and slide out\
 of the window a\
s d<sub>k</sub> \
grows, \xc3\xb7\xe2\x88\x9ad<su\
b>k</sub> stays \
at 1,\x0aa temperat\
ure \xcf\x84 moves eve\
ry point by 1/\xcf\x84\
. <b>Any \xcf\x83 that\
 does not grow w\
ith d<sub>k</sub\
> works</b> (\xcf\x83 \
= 3 too, and W<s\
ub>Q</sub>, W<su\
b>K</sub> can re\
scale);\x0a\xc3\xb7\xe2\x88\x9ad<s\
ub>k</sub> is th\
e choice that ma\
kes it 1 for eve\
ry head size (Va\
swani et al. 201\
7, \xc2\xa73.2.1). The\
 window moves wi\
th n, and faster\
 than\x0athe larges\
t of n Gaussians\
 (\xe2\x88\x9a(2 ln n)): \
its \xe2\x80\x96J\xe2\x80\x96<sub>\
F</sub> peak mov\
es from \xcf\x83 \xe2\x89\x88 3\
 at n = 16 to \xcf\x83\
 \xe2\x89\x88 7 at n = 16\
 384, roughly in\
 proportion\x0ato l\
n n, and from n \
= 256 keys on \xcf\x83\
 = 1 lies below \
the responsive w\
indow. That, and\
 not \xe2\x88\x9a(2 ln n)\
, is the bridge \
to the log-n sca\
ling of\x0along-con\
text models.</p>\
\x0a\
\x00\x00\x05i\
<\
h2>2 \xc2\xb7 Softmax \
of wide logits</\
h2>\x0a<p>Softmax t\
urns logits into\
 weights p<sub>j\
</sub> = e<sup>z\
<sub>j</sub></su\
p> / \xce\xa3<sub>i</s\
ub> e<sup>z<sub>\
i</sub></sup>. O\
nly differences \
matter:\x0aa gap \xce\x94\
 between two log\
its is a weight \
ratio e<sup>\xce\x94</\
sup>, and e<sup>\
7</sup> \xe2\x89\x88 1100\
.</p>\x0a<!-- revea\
l -->\x0a<p>At d<su\
b>k</sub> = 512 \
without scaling \
(\xcf\x83 \xe2\x89\x88 22.6, 64\
 keys) a query's\
 largest logit b\
eats its second \
by {step2_top_ga\
p} (median).\x0aThe\
 median query le\
aves only {step2\
_rest} of its we\
ight to the othe\
r 63 keys, and {\
step2_saturated}\
 of queries are \
<i>saturated</i>\
\x0a(largest weight\
 above 0.99). Pa\
nel 2 shows one \
query's weights,\
 sorted.</p>\x0a<p>\
Saturation is no\
t bad in itself:\
 a trained head \
<i>should</i> co\
mmit to the righ\
t key. The harm \
is saturating at\
 initialisation,\
\x0aon a key picked\
 by chance, befo\
re anything is l\
earned: step 3 s\
hows how little \
gradient such a \
row passes back.\
 It can still mo\
ve, but\x0aslowly, \
carried by the r\
are rows that ha\
ppen to be near \
a tie, and only \
at well-chosen l\
earning rates. <\
!-- lab-claims -\
->In the trainin\
g lab\x0a(d<sub>k</\
sub> = 256, SGD)\
 raw logits star\
t with 50\xe2\x80\x9370 %\
 of their rows s\
aturated; they s\
till reach 90 % \
at 4\xe2\x80\x936 of the \
9 rates, but\x0anev\
er from lr 2 up,\
 and with 2\xe2\x80\x934 \
layers raw train\
s at none of the\
 9 SGD rates.<!-\
- /lab-claims --\
>\x0aWhere softmax \
is responsive, a\
nd why, is the <\
a href=\x22scenario\
:sigma_dial\x22>\xcf\x83 \
dial</a> follow-\
up.</p>\x0a\
\x00\x00\x04\xb1\
<\
h3>Follow-up: QK\
-normalisation</\
h3>\x0a<p>Two publi\
shed forms. (a) \
LayerNorm on q a\
nd k, <i>keeping\
</i> \xc3\xb7\xe2\x88\x9ad<sub>\
k</sub> (Dehghan\
i et al. 2023, V\
iT-22B; Wortsman\
 et al. 2023): q\
 and k\x0aeach have\
 norm about \xe2\x88\x9ad\
<sub>k</sub>\xc2\xb7\xce\xb3\
 (\xce\xb3 the LayerNo\
rm gain), so a l\
ogit is bounded,\
 |z| \xe2\x89\xa4 \xe2\x88\x9ad<su\
b>k</sub>\xc2\xb7\xce\xb3\xc2\xb2.\
 That does not k\
eep its variance\
 1\x0aonce training\
 aligns q with k\
, but it stops t\
he logits from d\
rifting upwards \
without bound, t\
he growth Wortsm\
an et al. and Zh\
ai et al.\x0atie to\
 instability and\
 attention-entro\
py collapse.\x0a(b)\
 L2-normalise q \
and k and multip\
ly by a gain g (\
Henry et al. 202\
0): each logit i\
s g\xc2\xb7cos \xce\xb8, in \
[\xe2\x88\x92g, g].</p>\x0a<\
p>For independen\
t directions cos\
 \xce\xb8 has standard\
 deviation 1/\xe2\x88\x9a\
d<sub>k</sub>, s\
o \xcf\x83 = g/\xe2\x88\x9ad<su\
b>k</sub>. A sma\
ll fixed g gives\
 near-uniform at\
tention:\x0ag = 4 a\
t d<sub>k</sub> \
= 1024 is \xcf\x83 = 0\
.125, max p {qkn\
orm_g4_maxp} aga\
inst uniform 1/6\
4, the \xc3\xb7\xe2\x88\x9ad<su\
b>model</sub> sy\
mptom. So g must\
 be large or lea\
rned;\x0aHenry et a\
l. learn it, sta\
rting at log<sub\
>2</sub>(n\xc2\xb2 \xe2\x88\x92\
 n) \xe2\x89\x88 12 for n\
 = 64 (the prese\
t). Once trainin\
g aligns q with \
its key, g\xc2\xb7cos \
\xce\xb8 nears g\x0aand t\
he right key win\
s at every d<sub\
>k</sub> (table,\
 \xcf\x81 = 0.9: {qkno\
rm_aligned_right\
} of rows).</p>\x0a\
\
\x00\x00\x05F\
<\
h2>5 \xc2\xb7 Traps an\
d follow-ups</h2\
>\x0a<p>The chain: \
d<sub>k</sub> te\
rms \xe2\x86\x92 variance\
 d<sub>k</sub> \xe2\
\x86\x92 wide logits \xe2\
\x86\x92 saturation at\
 initialisation,\
 on arbitrary ke\
ys \xe2\x86\x92 J \xe2\x89\x88 0 \xe2\
\x86\x92 almost no gra\
dient.\x0aA cure mu\
st set the <i>sp\
read of the logi\
ts</i>, which at\
 initialisation \
is fixed by d<su\
b>k</sub>.</p>\x0a<\
p>Each trap is a\
 plausible fix t\
hat breaks a lin\
k; each follow-u\
p, a published d\
esign that handl\
es the chain ano\
ther way (the pa\
nels update live\
).</p>\x0a<p><b>Doe\
s it train worse\
?</b> The <i>Tra\
ining lab</i> ta\
b trains a small\
 attention layer\
 on recall, raw \
against \xc3\xb7\xe2\x88\x9ad<s\
ub>k</sub>,\x0afrom\
 the same weight\
s. One shared le\
arning rate woul\
d not be fair (\xc3\
\xb7\xe2\x88\x9ad<sub>k</sub\
> also divides t\
he gradient thro\
ugh the logits b\
y \xe2\x88\x9ad<sub>k</su\
b>), so the lab \
sweeps it.\x0a<!-- \
lab-claims -->Sw\
ept over 9 learn\
ing rates (0.05 \
\xe2\x80\xa6 20, SGD, d<s\
ub>k</sub> = 256\
, seeds 0\xe2\x80\x934), \
each at its best\
 rate: raw logit\
s reach 90 % acc\
uracy in 35\xe2\x80\x9360\
 steps at lr 0.2\
\xe2\x80\x930.5,\x0a\xc3\xb7\xe2\x88\x9ad<s\
ub>k</sub> in 20\
\xe2\x80\x9322 steps at l\
r 5\xe2\x80\x9310 (20 is \
the fewest a 20-\
step average can\
 show). Raw reac\
hes 90 % at 4\xe2\x80\x93\
6 of the 9 rates\
 (never from lr \
2 up), \xc3\xb7\xe2\x88\x9ad<su\
b>k</sub> at 9 o\
f 9.\x0aHow sharp a\
 trained \xc3\xb7\xe2\x88\x9ad<\
sub>k</sub> head\
 ends depends on\
 the rate: 85\xe2\x80\x93\
95 % of their ro\
ws saturated at \
lr 5, 50\xe2\x80\x9360 % \
at lr 0.5, 4\xe2\x80\x937\
 % at lr 0.05, a\
ll of them on th\
e right key.<!--\
 /lab-claims -->\
</p>\x0a\
\x00\x00\x03\xc4\
<\
h2>1 \xc2\xb7 A logit \
is a sum of d<su\
b>k</sub> terms<\
/h2>\x0a<p>An atten\
tion logit is a \
dot product: z =\
 q\xc2\xb7k = q<sub>1<\
/sub>k<sub>1</su\
b> + q<sub>2</su\
b>k<sub>2</sub> \
+ \xe2\x80\xa6 + q<sub>d<\
sub>k</sub></sub\
>k<sub>d<sub>k</\
sub></sub>.\x0aAssu\
me, as Vaswani e\
t al. (2017, \xc2\xa73\
.2.1, footnote 4\
) do, that at in\
itialisation the\
 entries of q an\
d k are independ\
ent with mean 0 \
and\x0avariance 1: \
each product q<s\
ub>i</sub>k<sub>\
i</sub> then has\
 mean 0 and vari\
ance 1.</p>\x0a<!--\
 reveal -->\x0a<p>V\
ariances of inde\
pendent terms ad\
d: z has varianc\
e d<sub>k</sub> \
and <b>\xcf\x83 = \xe2\x88\x9ad\
<sub>k</sub></b>\
, 8 at d<sub>k</\
sub> = 64 and 22\
.6 at 512\x0a(sampl\
ed: {step1_sigma\
_512} over 32 se\
eds). No entry g\
ot bigger; there\
 are just more t\
erms.</p>\x0a<p>Wat\
ch panel 1 as d<\
sub>k</sub> grow\
s: the histogram\
 widens with \xe2\x88\x9a\
d<sub>k</sub>. T\
he normal curve \
N(0, d<sub>k</su\
b>) is only the \
large-d<sub>k</s\
ub>\x0alimit: at d<\
sub>k</sub> = 2 \
the exact densit\
y is e<sup>\xe2\x88\x92|z\
|</sup>/2, peak \
0.5 against the \
normal's 0.28.</\
p>\x0a\
\x00\x00\x03\x9d\
<\
h3>Trap: dividin\
g by \xe2\x88\x9ad<sub>mo\
del</sub> instea\
d of \xe2\x88\x9ad<sub>k<\
/sub></h3>\x0a<p>Ea\
ch head's logit \
sums over its ow\
n d<sub>k</sub> \
entries, not ove\
r d<sub>model</s\
ub> = h\xc2\xb7d<sub>k\
</sub>. Dividing\
 by \xe2\x88\x9a(h\xc2\xb7d<sub\
>k</sub>) leaves\
\x0a\xcf\x83 = 1/\xe2\x88\x9ah: wi\
th 8 heads 1/\xe2\x88\x9a\
8 \xe2\x89\x88 0.35 (meas\
ured {dmodel_sig\
ma}). At initial\
isation the weig\
hts are nearly u\
niform (median e\
ntropy {dmodel_e\
ntropy}\x0aof log 6\
4 = 4.16) and th\
e gradient reach\
ing a query is {\
dmodel_grad_rati\
o} smaller than \
with \xc3\xb7\xe2\x88\x9ad<sub>\
k</sub>.</p>\x0a<p>\
Near-uniform att\
ention at the st\
art is not fatal\
 in itself (\xce\xbcP \
even zero-initia\
lises the query)\
. The flaw is a \
scale tied to th\
e number\x0aof head\
s: the scales of\
 W<sub>q</sub> a\
nd W<sub>k</sub>\
 must grow by a \
combined \xe2\x88\x9ah be\
fore attention c\
an select, and t\
hat handicap cha\
nges whenever h \
does.</p>\x0a<p>Pra\
ctice: spot this\
 trap in code, <\
a href=\x22bug:bug_\
head_embd\x22>A hea\
d scaled by the \
embedding width<\
/a> (practice mo\
de, I).</p>\x0a\
\x00\x00\x03\x8b\
<\
h3>Trap: \xe2\x80\x9cstab\
le softmax fixes\
 it\xe2\x80\x9d</h3>\x0a<p>S\
ubtracting the r\
ow maximum chang\
es how softmax i\
s <i>evaluated</\
i>, not what it \
<i>is</i>: softm\
ax(z \xe2\x88\x92 c) = so\
ftmax(z).\x0aAt d<s\
ub>k</sub> = 512\
 without scaling\
 the largest log\
it reaches {stab\
le_max_logit}. N\
aive float16 ove\
rflows above 11.\
09, so it return\
s\x0aNaN for {stabl\
e_naive16_nan} o\
f the rows: no w\
eights at all. N\
aive float32 ove\
rflows only abov\
e 88.72 ({stable\
_naive32_nan_row\
s} NaN rows,\x0adep\
ending on the se\
ed); where it st\
ays finite it ag\
rees with the st\
able version to \
{stable_f32_diff\
}.</p>\x0a<p>The st\
able program ret\
urns the true so\
ftmax, and it is\
 still saturated\
 with \xe2\x80\x96J\xe2\x80\x96 \xe2\x89\
\x88 0. Stability c\
ures overflow, n\
ot saturation.\x0aT\
he table's max p\
 and \xe2\x80\x96J\xe2\x80\x96 com\
e from the weigh\
ts each program \
returns, over th\
e rows that stay\
ed finite.</p>\x0a<\
p>Practice: spot\
 this trap in co\
de, <a href=\x22bug\
:bug_missing\x22>No\
 scale at all</a\
> (practice mode\
, I).</p>\x0a\
\x00\x00\x04?\
<\
h2>3 \xc2\xb7 What rea\
ches the queries\
</h2>\x0a<p>Learnin\
g needs to know \
how the weights \
change when a lo\
git changes: the\
 softmax Jacobia\
n <b>J = diag(p)\
 \xe2\x88\x92 p p\xe1\xb5\x80</b>,\
\x0aentry (i, j) = \
p<sub>i</sub>(\xce\xb4\
<sub>ij</sub> \xe2\x88\
\x92 p<sub>j</sub>)\
. For one-hot p \
every entry is 0\
.</p>\x0a<!-- revea\
l -->\x0a<p>The gra\
dient reaching a\
 query, \xe2\x88\x82L/\xe2\x88\x82\
q = (scale) \xc2\xb7 K\
\xe1\xb5\x80 J \xe2\x88\x82L/\xe2\x88\x82p,\
 passes <i>throu\
gh</i> J. Withou\
t scaling the me\
dian \xe2\x80\x96\xe2\x88\x82L/\xe2\x88\x82\
q\xe2\x80\x96 is at first\
\x0a<i>larger</i> t\
han with \xc3\xb7\xe2\x88\x9ad<\
sub>k</sub>, unt\
il d<sub>k</sub>\
 \xe2\x89\x88 {step3_cros\
sover}: the chai\
n rule brings th\
e scale in, \xe2\x88\x82z\
/\xe2\x88\x82q = c\xc2\xb7k wit\
h c = 1 raw and\x0a\
1/\xe2\x88\x9ad<sub>k</su\
b> scaled, while\
 \xe2\x88\x82L/\xe2\x88\x82z itsel\
f does not depen\
d on c. Then J c\
rushes it:\x0a{step\
3_ratio_1024} sm\
aller than with \
\xc3\xb7\xe2\x88\x9ad<sub>k</su\
b> at d<sub>k</s\
ub> = 1024, {ste\
p3_ratio_4096} a\
t 4096 (panels 3\
 and 4, vermilli\
on).</p>\x0a<p>The \
mean hides this:\
 a few near-tie \
rows still get l\
arge gradients (\
dotted line in p\
anel 4; at d<sub\
>k</sub> = 2048 \
the raw mean is\x0a\
{step3_mean_rati\
o} the \xc3\xb7\xe2\x88\x9ad<su\
b>k</sub> median\
). Learning rest\
s on rare rows w\
hile most querie\
s receive almost\
 nothing.</p>\x0a\
\x00\x00\x02D\
<\
h3>Trap: scaling\
 after the softm\
ax</h3>\x0a<p>Divid\
ing the <i>weigh\
ts</i> by \xe2\x88\x9ad<s\
ub>k</sub> does \
nothing to satur\
ation: the softm\
ax already saw t\
he wide logits\x0a(\
{after_softmax_s\
aturated} of row\
s saturated at d\
<sub>k</sub> = 2\
56). It breaks t\
he weights inste\
ad: each row now\
 sums to 1/\xe2\x88\x9ad<\
sub>k</sub>\x0a(0.0\
625 at d<sub>k</\
sub> = 256), not\
 1, and the grad\
ient through the\
 collapsed J shr\
inks by another \
1/\xe2\x88\x9ad<sub>k</su\
b>. Watch \xe2\x80\x9crow\
 sum\xe2\x80\x9d in panel\
 2.</p>\x0a<p>Pract\
ice: spot this t\
rap in code, <a \
href=\x22bug:bug_vi\
t_after\x22>A divis\
ion in the wrong\
 place</a> (prac\
tice mode, I).</\
p>\x0a\
\x00\x00\x04.\
<\
h3>Trap: \xe2\x80\x9csmal\
l heads train fi\
ne, so it doesn'\
t matter\xe2\x80\x9d</h3>\
\x0a<p>At small d<s\
ub>k</sub> raw l\
ogits are not to\
o wide: at d<sub\
>k</sub> = 16, \xcf\
\x83 = 4, where sof\
tmax is <i>most<\
/i> responsive (\
see the\x0atemperat\
ure follow-up). \
So the raw softm\
ax is the more r\
esponsive one th\
ere: from d<sub>\
k</sub> = 2 to 3\
2, \xc3\xb7\xe2\x88\x9ad<sub>k<\
/sub>'s median \xe2\
\x80\x96J\xe2\x80\x96<sub>F</su\
b>\x0ais only {smal\
l_heads_ratio_sm\
all} the raw one\
 (raw ahead by u\
p to {small_head\
s_raw_adv}). The\
 two cross near \
d<sub>k</sub> \xe2\x89\
\x88 {small_heads_c\
ross};\x0athen \xc3\xb7\xe2\x88\
\x9ad<sub>k</sub> l\
eads by {small_h\
eads_ratio_512} \
at d<sub>k</sub>\
 = 512 and {smal\
l_heads_ratio_40\
96} at 4096.</p>\
\x0a<p>This is one \
layer at initial\
isation. In a de\
ep stack such fa\
ctors combine ac\
ross layers (thr\
ough the residua\
l stream, not as\
 a plain\x0aproduct\
), so a modest m\
is-scaling per l\
ayer can compoun\
d. The <i>Traini\
ng lab</i> stack\
s up to four lay\
ers: <!-- lab-cl\
aims -->with 2\xe2\x80\
\x934 layers\x0araw tr\
ains at none of \
the 9 SGD rates<\
!-- /lab-claims \
-->, while \xc3\xb7\xe2\x88\x9a\
d<sub>k</sub> st\
ill does at most\
 of them: the be\
st rebuttal of \x22\
small heads trai\
n fine\x22.</p>\x0a\
\x00\x00\x06[\
<\
h3>Follow-up: \xce\xbc\
P's 1/d<sub>k</s\
ub> and alignmen\
t</h3>\x0a<p>With i\
ndependent q and\
 k, 1/d<sub>k</s\
ub> over-shrinks\
: \xcf\x83 = 1/\xe2\x88\x9ad<su\
b>k</sub>. \xce\xbcP's\
 claim (Yang et \
al. 2022, Tensor\
 Programs V) is \
about training:\x0a\
once q and k are\
 correlated, q\xc2\xb7\
k grows like d<s\
ub>k</sub>, not \
\xe2\x88\x9ad<sub>k</sub>\
, and 1/d<sub>k<\
/sub> keeps the \
logits' <i>updat\
es</i> the same \
size at\x0aevery wi\
dth, so tuned hy\
perparameters tr\
ansfer across wi\
dths.</p>\x0a<p>The\
 question is <b>\
does the sharpne\
ss change with w\
idth?</b> The al\
ignment \xcf\x81 mimic\
s trained, corre\
lated q and k. A\
t a fixed \xcf\x81 = 0\
.5 the\x0aaligned k\
ey's lead under \
\xc3\xb7\xe2\x88\x9ad<sub>k</su\
b> grows like \xcf\x81\
\xe2\x88\x9ad<sub>k</sub>\
: the median max\
 p goes from {mu\
p_sqrt_maxp_64} \
at d<sub>k</sub>\
 = 64 to\x0a{mup_sq\
rt_maxp_256} at \
256 and {mup_sqr\
t_maxp_1024} at \
1024, where \xe2\x80\x96J\
\xe2\x80\x96<sub>F</sub> \
is {mup_sqrt_jac\
_1024}: as colla\
psed as raw logi\
ts at\x0ainitialisa\
tion. The same t\
raining signal g\
ives a wide head\
 a frozen softma\
x and a narrow o\
ne a responsive \
one. microsoft/m\
up's q\xc2\xb7k\xe1\xb5\x80\xc2\xb78/\
d\x0a(equal to 1/\xe2\x88\
\x9ad at d = 64; th\
e preset's \xcf\x84 = \
1/8) holds the l\
ead at 8\xcf\x81: max \
p {mup_8d_maxp} \
at every d<sub>k\
</sub> from 256 \
up. That is \xce\xbcP'\
s argument.\x0aPlai\
n \xc3\xb7d<sub>k</sub\
> holds it at \xcf\x81\
, max p {mup_dk_\
maxp}, barely ab\
ove 1/64.</p>\x0a<p\
>Which key wins \
does not decide \
between them: th\
e top key is the\
 aligned one in \
{mup_right} of r\
ows for every po\
sitive scale (a \
positive\x0afactor \
does not change \
the argmax). \xce\xbcP\
 also zero-initi\
alises the query\
, so attention s\
tarts uniform by\
 design. The pan\
els draw the pre\
set:\x0a\xc3\xb7d<sub>k</\
sub> at \xcf\x84 = 1/8\
 (their keys say\
 so), so their \xc3\
\xb7\xe2\x88\x9ad<sub>k</sub\
> and raw curves\
 are at \xcf\x84 = 1/8\
 too.</p>\x0a\
\x00\x00\x04\xfc\
<\
h2>4 \xc2\xb7 Divide b\
y \xe2\x88\x9ad<sub>k</su\
b></h2>\x0a<p>The f\
ix of Vaswani et\
 al. (2017, \xc2\xa73.\
2.1) is one line\
: z = q\xc2\xb7k / \xe2\x88\x9a\
d<sub>k</sub>. W\
hat does it do t\
o the spread of \
the logits, at e\
very head size?<\
/p>\x0a<!-- reveal \
-->\x0a<p>Dividing \
every logit by \xe2\
\x88\x9ad<sub>k</sub> \
divides its vari\
ance by d<sub>k<\
/sub>: under ste\
p 1's assumption\
s (independent u\
nit-variance ent\
ries) z = q\xc2\xb7k /\
 \xe2\x88\x9ad<sub>k</sub\
> has <b>varianc\
e 1 at every hea\
d size</b>.</p>\x0a\
<p>The blue curv\
es in panels 3 a\
nd 4 stay nearly\
 flat from d<sub\
>k</sub> = 4 to \
4096 (median \xe2\x80\x96\
J\xe2\x80\x96<sub>F</sub>\
 {step4_jac}, \xe2\x80\
\x96\xe2\x88\x82L/\xe2\x88\x82q\xe2\x80\x96 {s\
tep4_grad})\x0aand \
no row saturates\
 ({step4_saturat\
ed}). So <i>at i\
nitialisation</i\
> one learning r\
ate sees the sam\
e gradient scale\
 at every head s\
ize;\x0awhether tha\
t survives train\
ing is \xce\xbcP's que\
stion.</p>\x0a<p>Sa\
turation should \
come later, on t\
he right key: wi\
th queries leani\
ng towards their\
 keys (alignment\
 \xcf\x81 = 0.5), \xc3\xb7\xe2\x88\
\x9ad<sub>k</sub> a\
t\x0ad<sub>k</sub> \
= 512 saturates \
{aligned_saturat\
ed} of rows, {al\
igned_right} on \
that key.</p>\x0a<p\
>Vaswani et al. \
(2017, \xc2\xa73.2.1) \
state the reason\
 as a suspicion:\
 large dot produ\
cts push softmax\
 into regions wi\
th extremely sma\
ll gradients.\x0aPr\
ess <b>R</b> and\
 <b>S</b> to fli\
p raw and scaled\
. Why \xcf\x83 = 1 and\
 not 3: the <a h\
ref=\x22scenario:si\
gma_dial\x22>\xcf\x83 dia\
l</a>.</p>\x0a\
\x00\x00\x05\xd9\
<\
h3>Follow-up: bf\
loat16 and float\
8</h3>\x0a<p>bfloat\
16 has float32's\
 range but 8 sig\
nificand bits: n\
ear |z| = 64 its\
 values are 0.5 \
apart, so a logi\
t rounds by up t\
o 0.25, and sinc\
e a weight depen\
ds on two logits\
 (its own and th\
e largest) it ca\
n move by up to \
e<sup>0.5</sup> \
\xe2\x88\x92 1 \xe2\x89\x88 65 %. \
float8 E4M3's la\
rgest value is 4\
48: <i>ml-dtypes\
</i>' cast turns\
 anything beyond\
 it into NaN, wh\
ile Transformer-\
Engine-style cas\
ts saturate to \xc2\
\xb1448; E5M2 reach\
es 57 344 (beyon\
d: inf) (Micikev\
icius et al. 202\
2). The model ro\
unds the <i>logi\
ts</i> to the ty\
pe and runs the \
softmax in float\
32: an unfused p\
ipeline. Fused k\
ernels (FlashAtt\
ention 2/3) keep\
 S = QK\xe1\xb5\x80 in fl\
oat32 accumulato\
rs and round q, \
k and the weight\
s instead; none \
stores logits in\
 E4M3, so the E4\
M3 columns model\
 no kernel. The \
<i>kernel</i> co\
lumns model a bf\
loat16 fused ker\
nel (q, k and p \
rounded, S and t\
he softmax in fl\
oat32, independe\
nt q and k). The\
 conclusion is t\
he same: at d<su\
b>k</sub> = 1024\
 its error is {k\
ernel_raw_1024} \
raw against {ker\
nel_scaled_1024}\
 with \xc3\xb7\xe2\x88\x9ad<sub\
>k</sub>, becaus\
e a logit moves \
by about |z| tim\
es the rounding \
of q and k, and \
the error grows \
with the logits.\
</p>\x0a<p>Raw logi\
ts grow like \xe2\x88\x9a\
d<sub>k</sub>, a\
nd so does their\
 rounding error;\
 \xc3\xb7\xe2\x88\x9ad<sub>k</s\
ub> keeps |z| ne\
ar 1 and the err\
or small at ever\
y head size. Tab\
le: the largest \
relative weight \
error of a query\
 row (weights \xe2\x89\
\xa5 0.1/n), 90th p\
ercentile over r\
ows, against flo\
at64. <code>sqrt\
dk-gui stats --d\
type bfloat16</c\
ode> prints it t\
oo.</p>\x0a\
\x00\x00\x0bA\
<\
h3>Follow-up: wh\
at interviewers \
ask</h3>\x0a<p><b>W\
hy \xe2\x88\x9ad<sub>k</s\
ub>, and why \xcf\x83 \
\xe2\x89\x88 1?</b> \xc3\xb7\xe2\x88\x9a\
d<sub>k</sub> is\
 fan-in normalis\
ation (LeCun et \
al. 1998; Glorot\
 &amp; Bengio 20\
10) applied to t\
he bilinear form\
 q\xc2\xb7k: a sum of \
d<sub>k</sub> in\
dependent produc\
ts has variance \
d<sub>k</sub>, s\
o it is divided \
by the square ro\
ot of its fan-in\
, as a linear la\
yer's weights ar\
e. The target \xcf\x83\
 = 1 is a conven\
tion: W<sub>Q</s\
ub> and W<sub>K<\
/sub> can rescal\
e it, and over 6\
4 keys softmax s\
tays responsive \
from \xcf\x83 = 1 to 4\
 (median \xe2\x80\x96J\xe2\x80\x96\
<sub>F</sub> {te\
mp_jac_1} at \xcf\x83 \
= 1, {temp_jac_4\
} at \xcf\x83 = 4, {te\
mp_jac_8} at \xcf\x83 \
= 8; the <a href\
=\x22scenario:sigma\
_dial\x22>\xcf\x83 dial</\
a>). What matter\
s is that \xcf\x83 doe\
s not depend on \
d<sub>k</sub>: w\
ith \xc3\xb7\xe2\x88\x9ad<sub>k\
</sub> the media\
n \xe2\x80\x96J\xe2\x80\x96<sub>F<\
/sub> is {step4_\
jac} at every he\
ad size from 4 t\
o 4096.</p>\x0a<p><\
b>Why not fold 1\
/\xe2\x88\x9ad<sub>k</sub\
> into W<sub>Q</\
sub>'s initialis\
ation?</b> At in\
itialisation the\
 forward pass is\
 identical. The \
optimisation is \
not: with c = 1/\
\xe2\x88\x9ad<sub>k</sub>\
, the gradient o\
f the explicit W\
<sub>Q</sub> is \
c\xc2\xb7G and that of\
 the folded W<su\
b>Q</sub>\xe2\x80\xb2 is \
G, while the log\
its feel W<sub>Q\
</sub> through c\
 and W<sub>Q</su\
b>\xe2\x80\xb2 directly. \
So one SGD step \
through W<sub>Q<\
/sub> moves the \
logits <b>d<sub>\
k</sub> times</b\
> more when fold\
ed; Adam's steps\
 have the same s\
ize whatever the\
 gradient's scal\
e, so folded the\
y move them <b>\xe2\
\x88\x9ad<sub>k</sub> \
times</b> more. \
W<sub>K</sub> is\
 unaffected. The\
 table below mea\
sures one step o\
n the Training l\
ab's own model. \
A learning rate \
tuned for one fo\
rm is wrong for \
the other: why t\
he lab sweeps th\
e rate instead o\
f sharing one, a\
nd the parametri\
sation argument \
behind <a href=\x22\
scenario:mup\x22>\xce\xbc\
P</a>.</p>\x0a<p><b\
>What does the b\
ackward pass do \
with the scale?<\
/b> \xe2\x88\x82L/\xe2\x88\x82z = \
J \xe2\x88\x82L/\xe2\x88\x82p depe\
nds on the logit\
s only; \xe2\x88\x82L/\xe2\x88\x82\
q = c K\xe1\xb5\x80 \xe2\x88\x82L/\
\xe2\x88\x82z carries c i\
tself. So at sma\
ll d<sub>k</sub>\
, where both sof\
tmaxes respond, \
raw gradients ar\
e larger: the me\
dian \xe2\x80\x96\xe2\x88\x82L/\xe2\x88\x82\
q\xe2\x80\x96 raw over \xc3\xb7\
\xe2\x88\x9ad<sub>k</sub>\
 is {backward_ra\
w_4} at d<sub>k<\
/sub> = 4 and {b\
ackward_raw_16} \
at 16, more than\
 \xe2\x88\x9ad<sub>k</sub\
> because raw's \
wider logits als\
o sit nearer sof\
tmax's most resp\
onsive spread. F\
rom d<sub>k</sub\
> \xe2\x89\x88 {step3_cro\
ssover} on, satu\
ration wins and \
raw's gradient c\
ollapses (step 3\
).</p>\x0a<p><b>Ini\
tialisation or t\
raining?</b> \xc3\xb7\xe2\
\x88\x9ad<sub>k</sub> \
fixes the logits\
' spread at init\
ialisation only.\
 Training aligns\
 q with its keys\
 and the logits \
grow. In the Tra\
ining lab's runs\
 at SGD rate 5 (\
the largest |log\
it| of a batch, \
d<sub>k</sub> = \
256), raw logits\
 grow from 55\xe2\x80\x93\
71 at the first \
step to 10\xe2\x81\xb4\xe2\x80\x93\
10\xe2\x81\xb6 by step 40\
0, and even \xc3\xb7\xe2\x88\
\x9ad<sub>k</sub>'s\
 go from 3.4\xe2\x80\x934\
.4 to 16\xe2\x80\x9323. A\
t scale this gro\
wth destabilises\
 training (Dehgh\
ani et al. 2023,\
 ViT-22B; Wortsm\
an et al. 2023) \
and collapses at\
tention entropy \
(Zhai et al. 202\
3); <a href=\x22sce\
nario:qk_norm\x22>Q\
K-normalisation<\
/a> and \xcf\x83Repara\
m bound it.</p>\x0a\
\
\x00\x00\x04]\
<\
h3>Trap: a scale\
 derived from th\
e sequence lengt\
h</h3>\x0a<p>Each l\
ogit is one dot \
product of d<sub\
>k</sub> terms; \
the number of ke\
ys n does not en\
ter its variance\
. <i>Replacing</\
i> 1/\xe2\x88\x9ad<sub>k<\
/sub> by 1/\xe2\x88\x9an \
gives \xcf\x83 = \xe2\x88\x9a(d\
<sub>k</sub>/n):\
 too wide for sh\
ort contexts, to\
o flat for long \
ones. Its n = 25\
6 row shows \xcf\x83 \xe2\
\x89\x88 1 only becaus\
e there n = d<su\
b>k</sub>.</p>\x0a<\
p>What n does ch\
ange is the comp\
etition: the sam\
e \xcf\x83 spreads wei\
ght thinner over\
 more keys (medi\
an max p {seqlen\
_maxp_16} at n =\
 16, {seqlen_max\
p_1024} at 1024)\
. So long-contex\
t models <i>mult\
iply</i> the \xc3\xb7\xe2\
\x88\x9ad<sub>k</sub> \
logits by a slow\
ly growing facto\
r: log n through\
out (Chiang &amp\
; Cholak 2022; s\
calable-softmax,\
 Nakanishi 2025)\
, or only past t\
he training leng\
th L (Qwen's log\
<sub>L</sub> n; \
YaRN's 0.1\xc2\xb7ln s\
 + 1 on q and k \
each, s the cont\
ext-extension ra\
tio, Peng et al.\
 2023; Llama 4 a\
t long positions\
). The last colu\
mn multiplies by\
 log<sub>64</sub\
> n past n = 64 \
(max p {seqlen_m\
axp_logn_1024} a\
t n = 1024).</p>\
\x0a<p>Practice: sp\
ot this trap in \
code, <a href=\x22b\
ug:bug_seq_len\x22>\
A scale from the\
 context length<\
/a> (practice mo\
de, I).</p>\x0a\
\x00\x00\x03\x8c\
<\
h3>Follow-up: lo\
ng context \xe2\x80\x94 \xc3\
\xb7\xe2\x88\x9an versus \xc3\x97 \
log n</h3>\x0a<p>n \
can reach 131 07\
2 keys: above 10\
24 the keys are \
streamed in bloc\
ks for a sample \
of rows. At a fi\
xed \xcf\x83 attention\
 <b>dilutes</b>:\
 max weight fall\
s, entropy grows\
 like log n (\xcf\x83 \
= 1: H \xe2\x89\x88 log n\
 \xe2\x88\x92 \xc2\xbd).</p>\x0a<p\
><b>Bug:</b> \xc3\xb7\xe2\
\x88\x9an instead of \xc3\
\xb7\xe2\x88\x9ad<sub>k</sub\
> \xe2\x80\x94 \xcf\x83 = \xe2\x88\x9a(d\
<sub>k</sub>/n) \
shrinks and atte\
ntion goes unifo\
rm. <b>Technique\
:</b> keep \xc3\xb7\xe2\x88\x9a\
d<sub>k</sub> an\
d multiply by ma\
x(1, ln n / ln 6\
4) \xe2\x80\x94 Qwen's lo\
gn attention wit\
h a training len\
gth of 64. Scala\
ble-softmax mult\
iplies by s\xc2\xb7ln \
n everywhere, wi\
th no max(1, \xc2\xb7)\
 (Nakanishi 2025\
; Chiang &amp; C\
holak 2022 use l\
og n); YaRN mult\
iplies q and k e\
ach by 0.1\xc2\xb7ln s\
 + 1, where s is\
 the context-ext\
ension ratio, so\
 its logits grow\
 by (0.1\xc2\xb7ln s +\
 1)\xc2\xb2. Here \xcf\x83 g\
rows to 2.83 at \
131 072 keys, en\
ough to keep the\
 largest weight \
from diluting th\
e way plain \xc3\xb7\xe2\x88\
\x9ad<sub>k</sub>'s\
 does.</p>\x0a\
\x00\x00\x03\xa7\
<\
h3>Follow-up: te\
mperature</h3>\x0a<\
p>A temperature \
\xcf\x84 divides the l\
ogits, so \xcf\x84 and\
 the scale multi\
ply into one <b>\
effective spread\
</b> \xcf\x83 = \xe2\x88\x9ad<s\
ub>k</sub> \xc2\xb7 sc\
ale / \xcf\x84. Dividi\
ng raw logits by\
 \xe2\x88\x9ad<sub>k</sub\
> is \xcf\x84 = \xe2\x88\x9ad<s\
ub>k</sub>; a fi\
xed \xcf\x84 fits one \
head size only.<\
/p>\x0a<p>What matt\
ers is \xcf\x83, for t\
he number of key\
s n. With 64 key\
s (medians over \
rows): \xcf\x83 = 1 gi\
ves max p {temp_\
maxp_1}, \xe2\x80\x96J\xe2\x80\x96\
<sub>F</sub> {te\
mp_jac_1}; near \
\xcf\x83 = 4 it is mos\
t responsive, ma\
x p {temp_maxp_4\
}, \xe2\x80\x96J\xe2\x80\x96<sub>F\
</sub> {temp_jac\
_4}, only {temp_\
sat_4} of rows s\
aturated; satura\
tion begins near\
 \xcf\x83 \xe2\x89\x88 8 ({temp\
_sat_8} of rows,\
 \xe2\x80\x96J\xe2\x80\x96<sub>F</\
sub> {temp_jac_8\
}). More keys mo\
ve the window up\
 slowly: at \xcf\x83 =\
 8 with 1024 key\
s {temp_sat_8_n1\
024} saturate. T\
he table uses th\
e current n.</p>\
\x0a<p>The preset, \
\xcf\x84 = 8 at d<sub>\
k</sub> = 1024, \
is \xcf\x83 = 4: respo\
nsive, not satur\
ating. The whole\
 curve, for any \
n: the <a href=\x22\
scenario:sigma_d\
ial\x22>\xcf\x83 dial</a>\
.</p>\x0a\
\x00\x00\x04\xc2\
<\
h3>Follow-up: wh\
y \xcf\x83 \xe2\x89\x88 1 and n\
ot 3?</h3>\x0a<p>Th\
e softmax only s\
ees the spread \xcf\
\x83 of its logits.\
 The <b>\xcf\x83 dial<\
/b> (tab <b>5 \xc2\xb7\
 \xcf\x83 dial</b>, ke\
y <b>D</b>) plot\
s, for n keys, t\
he median max we\
ight, entropy / \
log n and \xe2\x80\x96J\xe2\x80\
\x96<sub>F</sub> of\
 Gaussian logits\
 of spread \xcf\x83 (8\
 seeds, 10\xe2\x80\x9390 \
% band): curves \
of n alone. At n\
 = 64, \xe2\x80\x96J\xe2\x80\x96<s\
ub>F</sub> peaks\
 near \xcf\x83 \xe2\x89\x88 3\xe2\x80\
\x934 and collapses\
 beyond \xcf\x83 \xe2\x89\x88 8\
; for \xcf\x83 \xe2\x89\xaa 1 a\
ttention is unif\
orm.</p>\x0a<p>Each\
 scaling is a po\
int on it: raw l\
ogits sit at \xcf\x83 \
= \xe2\x88\x9ad<sub>k</su\
b> and slide out\
 of the window a\
s d<sub>k</sub> \
grows, \xc3\xb7\xe2\x88\x9ad<su\
b>k</sub> stays \
at 1, a temperat\
ure \xcf\x84 moves eve\
ry point by 1/\xcf\x84\
. <b>Any \xcf\x83 that\
 does not grow w\
ith d<sub>k</sub\
> works</b> (\xcf\x83 \
= 3 too, and W<s\
ub>Q</sub>, W<su\
b>K</sub> can re\
scale); \xc3\xb7\xe2\x88\x9ad<s\
ub>k</sub> is th\
e choice that ma\
kes it 1 for eve\
ry head size (Va\
swani et al. 201\
7, \xc2\xa73.2.1). The\
 window moves wi\
th n, and faster\
 than the larges\
t of n Gaussians\
 (\xe2\x88\x9a(2 ln n)): \
its \xe2\x80\x96J\xe2\x80\x96<sub>\
F</sub> peak mov\
es from \xcf\x83 \xe2\x89\x88 3\
 at n = 16 to \xcf\x83\
 \xe2\x89\x88 7 at n = 16\
 384, roughly in\
 proportion to l\
n n, and from n \
= 256 keys on \xcf\x83\
 = 1 lies below \
the responsive w\
indow. That, and\
 not \xe2\x88\x9a(2 ln n)\
, is the bridge \
to the log-n sca\
ling of long-con\
text models.</p>\
\x0a\
\x00\x00\x05B\
<\
h2>2 \xc2\xb7 Softmax \
of wide logits</\
h2>\x0a<p>Softmax t\
urns logits into\
 weights p<sub>j\
</sub> = e<sup>z\
<sub>j</sub></su\
p> / \xce\xa3<sub>i</s\
ub> e<sup>z<sub>\
i</sub></sup>. O\
nly differences \
matter: a gap \xce\x94\
 between two log\
its is a weight \
ratio e<sup>\xce\x94</\
sup>, and e<sup>\
7</sup> \xe2\x89\x88 1100\
.</p>\x0a<!-- revea\
l -->\x0a<p>At d<su\
b>k</sub> = 512 \
without scaling \
(\xcf\x83 \xe2\x89\x88 22.6, 64\
 keys) a query's\
 largest logit b\
eats its second \
by {step2_top_ga\
p} (median). The\
 median query le\
aves only {step2\
_rest} of its we\
ight to the othe\
r 63 keys, and {\
step2_saturated}\
 of queries are \
<i>saturated</i>\
 (largest weight\
 above 0.99). Pa\
nel 2 shows one \
query's weights,\
 sorted.</p>\x0a<p>\
Saturation is no\
t bad in itself:\
 a trained head \
<i>should</i> co\
mmit to the righ\
t key. The harm \
is saturating at\
 initialisation,\
 on a key picked\
 by chance, befo\
re anything is l\
earned: step 3 s\
hows how little \
gradient such a \
row passes back.\
 It can still mo\
ve, but slowly, \
carried by the r\
are rows that ha\
ppen to be near \
a tie, and only \
at well-chosen l\
earning rates. I\
n the training l\
ab (d<sub>k</sub\
> = 256, SGD) ra\
w logits start w\
ith 50\xe2\x80\x9370 % of\
 their rows satu\
rated; they stil\
l reach 90 % at \
4\xe2\x80\x936 of the 9 r\
ates, but never \
from lr 2 up, an\
d with 2\xe2\x80\x934 lay\
ers raw trains a\
t none of the 9 \
SGD rates. Where\
 softmax is resp\
onsive, and why,\
 is the <a href=\
\x22scenario:sigma_\
dial\x22>\xcf\x83 dial</a\
> follow-up.</p>\
\x0a\
\x00\x00\x04\xb1\
<\
h3>Follow-up: QK\
-normalisation</\
h3>\x0a<p>Two publi\
shed forms. (a) \
LayerNorm on q a\
nd k, <i>keeping\
</i> \xc3\xb7\xe2\x88\x9ad<sub>\
k</sub> (Dehghan\
i et al. 2023, V\
iT-22B; Wortsman\
 et al. 2023): q\
 and k each have\
 norm about \xe2\x88\x9ad\
<sub>k</sub>\xc2\xb7\xce\xb3\
 (\xce\xb3 the LayerNo\
rm gain), so a l\
ogit is bounded,\
 |z| \xe2\x89\xa4 \xe2\x88\x9ad<su\
b>k</sub>\xc2\xb7\xce\xb3\xc2\xb2.\
 That does not k\
eep its variance\
 1 once training\
 aligns q with k\
, but it stops t\
he logits from d\
rifting upwards \
without bound, t\
he growth Wortsm\
an et al. and Zh\
ai et al. tie to\
 instability and\
 attention-entro\
py collapse. (b)\
 L2-normalise q \
and k and multip\
ly by a gain g (\
Henry et al. 202\
0): each logit i\
s g\xc2\xb7cos \xce\xb8, in \
[\xe2\x88\x92g, g].</p>\x0a<\
p>For independen\
t directions cos\
 \xce\xb8 has standard\
 deviation 1/\xe2\x88\x9a\
d<sub>k</sub>, s\
o \xcf\x83 = g/\xe2\x88\x9ad<su\
b>k</sub>. A sma\
ll fixed g gives\
 near-uniform at\
tention: g = 4 a\
t d<sub>k</sub> \
= 1024 is \xcf\x83 = 0\
.125, max p {qkn\
orm_g4_maxp} aga\
inst uniform 1/6\
4, the \xc3\xb7\xe2\x88\x9ad<su\
b>model</sub> sy\
mptom. So g must\
 be large or lea\
rned; Henry et a\
l. learn it, sta\
rting at log<sub\
>2</sub>(n\xc2\xb2 \xe2\x88\x92\
 n) \xe2\x89\x88 12 for n\
 = 64 (the prese\
t). Once trainin\
g aligns q with \
its key, g\xc2\xb7cos \
\xce\xb8 nears g and t\
he right key win\
s at every d<sub\
>k</sub> (table,\
 \xcf\x81 = 0.9: {qkno\
rm_aligned_right\
} of rows).</p>\x0a\
\
\x00\x00\x05\x1f\
<\
h2>5 \xc2\xb7 Traps an\
d follow-ups</h2\
>\x0a<p>The chain: \
d<sub>k</sub> te\
rms \xe2\x86\x92 variance\
 d<sub>k</sub> \xe2\
\x86\x92 wide logits \xe2\
\x86\x92 saturation at\
 initialisation,\
 on arbitrary ke\
ys \xe2\x86\x92 J \xe2\x89\x88 0 \xe2\
\x86\x92 almost no gra\
dient. A cure mu\
st set the <i>sp\
read of the logi\
ts</i>, which at\
 initialisation \
is fixed by d<su\
b>k</sub>.</p>\x0a<\
p>Each trap is a\
 plausible fix t\
hat breaks a lin\
k; each follow-u\
p, a published d\
esign that handl\
es the chain ano\
ther way (the pa\
nels update live\
).</p>\x0a<p><b>Doe\
s it train worse\
?</b> The <i>Tra\
ining lab</i> ta\
b trains a small\
 attention layer\
 on recall, raw \
against \xc3\xb7\xe2\x88\x9ad<s\
ub>k</sub>, from\
 the same weight\
s. One shared le\
arning rate woul\
d not be fair (\xc3\
\xb7\xe2\x88\x9ad<sub>k</sub\
> also divides t\
he gradient thro\
ugh the logits b\
y \xe2\x88\x9ad<sub>k</su\
b>), so the lab \
sweeps it. Swept\
 over 9 learning\
 rates (0.05 \xe2\x80\xa6\
 20, SGD, d<sub>\
k</sub> = 256, s\
eeds 0\xe2\x80\x934), eac\
h at its best ra\
te: raw logits r\
each 90 % accura\
cy in 35\xe2\x80\x9360 st\
eps at lr 0.2\xe2\x80\x93\
0.5, \xc3\xb7\xe2\x88\x9ad<sub>\
k</sub> in 20\xe2\x80\x93\
22 steps at lr 5\
\xe2\x80\x9310 (20 is the\
 fewest a 20-ste\
p average can sh\
ow). Raw reaches\
 90 % at 4\xe2\x80\x936 o\
f the 9 rates (n\
ever from lr 2 u\
p), \xc3\xb7\xe2\x88\x9ad<sub>k\
</sub> at 9 of 9\
. How sharp a tr\
ained \xc3\xb7\xe2\x88\x9ad<sub\
>k</sub> head en\
ds depends on th\
e rate: 85\xe2\x80\x9395 \
% of their rows \
saturated at lr \
5, 50\xe2\x80\x9360 % at \
lr 0.5, 4\xe2\x80\x937 % \
at lr 0.05, all \
of them on the r\
ight key.</p>\x0a\
\x00\x00\x03\xc4\
<\
h2>1 \xc2\xb7 A logit \
is a sum of d<su\
b>k</sub> terms<\
/h2>\x0a<p>An atten\
tion logit is a \
dot product: z =\
 q\xc2\xb7k = q<sub>1<\
/sub>k<sub>1</su\
b> + q<sub>2</su\
b>k<sub>2</sub> \
+ \xe2\x80\xa6 + q<sub>d<\
sub>k</sub></sub\
>k<sub>d<sub>k</\
sub></sub>. Assu\
me, as Vaswani e\
t al. (2017, \xc2\xa73\
.2.1, footnote 4\
) do, that at in\
itialisation the\
 entries of q an\
d k are independ\
ent with mean 0 \
and variance 1: \
each product q<s\
ub>i</sub>k<sub>\
i</sub> then has\
 mean 0 and vari\
ance 1.</p>\x0a<!--\
 reveal -->\x0a<p>V\
ariances of inde\
pendent terms ad\
d: z has varianc\
e d<sub>k</sub> \
and <b>\xcf\x83 = \xe2\x88\x9ad\
<sub>k</sub></b>\
, 8 at d<sub>k</\
sub> = 64 and 22\
.6 at 512 (sampl\
ed: {step1_sigma\
_512} over 32 se\
eds). No entry g\
ot bigger; there\
 are just more t\
erms.</p>\x0a<p>Wat\
ch panel 1 as d<\
sub>k</sub> grow\
s: the histogram\
 widens with \xe2\x88\x9a\
d<sub>k</sub>. T\
he normal curve \
N(0, d<sub>k</su\
b>) is only the \
large-d<sub>k</s\
ub> limit: at d<\
sub>k</sub> = 2 \
the exact densit\
y is e<sup>\xe2\x88\x92|z\
|</sup>/2, peak \
0.5 against the \
normal's 0.28.</\
p>\x0a\
\x00\x00\x03\x9d\
<\
h3>Trap: dividin\
g by \xe2\x88\x9ad<sub>mo\
del</sub> instea\
d of \xe2\x88\x9ad<sub>k<\
/sub></h3>\x0a<p>Ea\
ch head's logit \
sums over its ow\
n d<sub>k</sub> \
entries, not ove\
r d<sub>model</s\
ub> = h\xc2\xb7d<sub>k\
</sub>. Dividing\
 by \xe2\x88\x9a(h\xc2\xb7d<sub\
>k</sub>) leaves\
 \xcf\x83 = 1/\xe2\x88\x9ah: wi\
th 8 heads 1/\xe2\x88\x9a\
8 \xe2\x89\x88 0.35 (meas\
ured {dmodel_sig\
ma}). At initial\
isation the weig\
hts are nearly u\
niform (median e\
ntropy {dmodel_e\
ntropy} of log 6\
4 = 4.16) and th\
e gradient reach\
ing a query is {\
dmodel_grad_rati\
o} smaller than \
with \xc3\xb7\xe2\x88\x9ad<sub>\
k</sub>.</p>\x0a<p>\
Near-uniform att\
ention at the st\
art is not fatal\
 in itself (\xce\xbcP \
even zero-initia\
lises the query)\
. The flaw is a \
scale tied to th\
e number of head\
s: the scales of\
 W<sub>q</sub> a\
nd W<sub>k</sub>\
 must grow by a \
combined \xe2\x88\x9ah be\
fore attention c\
an select, and t\
hat handicap cha\
nges whenever h \
does.</p>\x0a<p>Pra\
ctice: spot this\
 trap in code, <\
a href=\x22bug:bug_\
head_embd\x22>A hea\
d scaled by the \
embedding width<\
/a> (practice mo\
de, I).</p>\x0a\
\x00\x00\x03\x8b\
<\
h3>Trap: \xe2\x80\x9cstab\
le softmax fixes\
 it\xe2\x80\x9d</h3>\x0a<p>S\
ubtracting the r\
ow maximum chang\
es how softmax i\
s <i>evaluated</\
i>, not what it \
<i>is</i>: softm\
ax(z \xe2\x88\x92 c) = so\
ftmax(z). At d<s\
ub>k</sub> = 512\
 without scaling\
 the largest log\
it reaches {stab\
le_max_logit}. N\
aive float16 ove\
rflows above 11.\
09, so it return\
s NaN for {stabl\
e_naive16_nan} o\
f the rows: no w\
eights at all. N\
aive float32 ove\
rflows only abov\
e 88.72 ({stable\
_naive32_nan_row\
s} NaN rows, dep\
ending on the se\
ed); where it st\
ays finite it ag\
rees with the st\
able version to \
{stable_f32_diff\
}.</p>\x0a<p>The st\
able program ret\
urns the true so\
ftmax, and it is\
 still saturated\
 with \xe2\x80\x96J\xe2\x80\x96 \xe2\x89\
\x88 0. Stability c\
ures overflow, n\
ot saturation. T\
he table's max p\
 and \xe2\x80\x96J\xe2\x80\x96 com\
e from the weigh\
ts each program \
returns, over th\
e rows that stay\
ed finite.</p>\x0a<\
p>Practice: spot\
 this trap in co\
de, <a href=\x22bug\
:bug_missing\x22>No\
 scale at all</a\
> (practice mode\
, I).</p>\x0a\
\x00\x00\x04?\
<\
h2>3 \xc2\xb7 What rea\
ches the queries\
</h2>\x0a<p>Learnin\
g needs to know \
how the weights \
change when a lo\
git changes: the\
 softmax Jacobia\
n <b>J = diag(p)\
 \xe2\x88\x92 p p\xe1\xb5\x80</b>,\
 entry (i, j) = \
p<sub>i</sub>(\xce\xb4\
<sub>ij</sub> \xe2\x88\
\x92 p<sub>j</sub>)\
. For one-hot p \
every entry is 0\
.</p>\x0a<!-- revea\
l -->\x0a<p>The gra\
dient reaching a\
 query, \xe2\x88\x82L/\xe2\x88\x82\
q = (scale) \xc2\xb7 K\
\xe1\xb5\x80 J \xe2\x88\x82L/\xe2\x88\x82p,\
 passes <i>throu\
gh</i> J. Withou\
t scaling the me\
dian \xe2\x80\x96\xe2\x88\x82L/\xe2\x88\x82\
q\xe2\x80\x96 is at first\
 <i>larger</i> t\
han with \xc3\xb7\xe2\x88\x9ad<\
sub>k</sub>, unt\
il d<sub>k</sub>\
 \xe2\x89\x88 {step3_cros\
sover}: the chai\
n rule brings th\
e scale in, \xe2\x88\x82z\
/\xe2\x88\x82q = c\xc2\xb7k wit\
h c = 1 raw and \
1/\xe2\x88\x9ad<sub>k</su\
b> scaled, while\
 \xe2\x88\x82L/\xe2\x88\x82z itsel\
f does not depen\
d on c. Then J c\
rushes it: {step\
3_ratio_1024} sm\
aller than with \
\xc3\xb7\xe2\x88\x9ad<sub>k</su\
b> at d<sub>k</s\
ub> = 1024, {ste\
p3_ratio_4096} a\
t 4096 (panels 3\
 and 4, vermilli\
on).</p>\x0a<p>The \
mean hides this:\
 a few near-tie \
rows still get l\
arge gradients (\
dotted line in p\
anel 4; at d<sub\
>k</sub> = 2048 \
the raw mean is \
{step3_mean_rati\
o} the \xc3\xb7\xe2\x88\x9ad<su\
b>k</sub> median\
). Learning rest\
s on rare rows w\
hile most querie\
s receive almost\
 nothing.</p>\x0a\
\x00\x00\x02D\
<\
h3>Trap: scaling\
 after the softm\
ax</h3>\x0a<p>Divid\
ing the <i>weigh\
ts</i> by \xe2\x88\x9ad<s\
ub>k</sub> does \
nothing to satur\
ation: the softm\
ax already saw t\
he wide logits (\
{after_softmax_s\
aturated} of row\
s saturated at d\
<sub>k</sub> = 2\
56). It breaks t\
he weights inste\
ad: each row now\
 sums to 1/\xe2\x88\x9ad<\
sub>k</sub> (0.0\
625 at d<sub>k</\
sub> = 256), not\
 1, and the grad\
ient through the\
 collapsed J shr\
inks by another \
1/\xe2\x88\x9ad<sub>k</su\
b>. Watch \xe2\x80\x9crow\
 sum\xe2\x80\x9d in panel\
 2.</p>\x0a<p>Pract\
ice: spot this t\
rap in code, <a \
href=\x22bug:bug_vi\
t_after\x22>A divis\
ion in the wrong\
 place</a> (prac\
tice mode, I).</\
p>\x0a\
\x00\x00\x04\x07\
<\
h3>Trap: \xe2\x80\x9csmal\
l heads train fi\
ne, so it doesn'\
t matter\xe2\x80\x9d</h3>\
\x0a<p>At small d<s\
ub>k</sub> raw l\
ogits are not to\
o wide: at d<sub\
>k</sub> = 16, \xcf\
\x83 = 4, where sof\
tmax is <i>most<\
/i> responsive (\
see the temperat\
ure follow-up). \
So the raw softm\
ax is the more r\
esponsive one th\
ere: from d<sub>\
k</sub> = 2 to 3\
2, \xc3\xb7\xe2\x88\x9ad<sub>k<\
/sub>'s median \xe2\
\x80\x96J\xe2\x80\x96<sub>F</su\
b> is only {smal\
l_heads_ratio_sm\
all} the raw one\
 (raw ahead by u\
p to {small_head\
s_raw_adv}). The\
 two cross near \
d<sub>k</sub> \xe2\x89\
\x88 {small_heads_c\
ross}; then \xc3\xb7\xe2\x88\
\x9ad<sub>k</sub> l\
eads by {small_h\
eads_ratio_512} \
at d<sub>k</sub>\
 = 512 and {smal\
l_heads_ratio_40\
96} at 4096.</p>\
\x0a<p>This is one \
layer at initial\
isation. In a de\
ep stack such fa\
ctors combine ac\
ross layers (thr\
ough the residua\
l stream, not as\
 a plain product\
), so a modest m\
is-scaling per l\
ayer can compoun\
d. The <i>Traini\
ng lab</i> stack\
s up to four lay\
ers: with 2\xe2\x80\x934 \
layers raw train\
s at none of the\
 9 SGD rates, wh\
ile \xc3\xb7\xe2\x88\x9ad<sub>k\
</sub> still doe\
s at most of the\
m: the best rebu\
ttal of \x22small h\
eads train fine\x22\
.</p>\x0a\
\x00\x00\x06[\
<\
h3>Follow-up: \xce\xbc\
P's 1/d<sub>k</s\
ub> and alignmen\
t</h3>\x0a<p>With i\
ndependent q and\
 k, 1/d<sub>k</s\
ub> over-shrinks\
: \xcf\x83 = 1/\xe2\x88\x9ad<su\
b>k</sub>. \xce\xbcP's\
 claim (Yang et \
al. 2022, Tensor\
 Programs V) is \
about training: \
once q and k are\
 correlated, q\xc2\xb7\
k grows like d<s\
ub>k</sub>, not \
\xe2\x88\x9ad<sub>k</sub>\
, and 1/d<sub>k<\
/sub> keeps the \
logits' <i>updat\
es</i> the same \
size at every wi\
dth, so tuned hy\
perparameters tr\
ansfer across wi\
dths.</p>\x0a<p>The\
 question is <b>\
does the sharpne\
ss change with w\
idth?</b> The al\
ignment \xcf\x81 mimic\
s trained, corre\
lated q and k. A\
t a fixed \xcf\x81 = 0\
.5 the aligned k\
ey's lead under \
\xc3\xb7\xe2\x88\x9ad<sub>k</su\
b> grows like \xcf\x81\
\xe2\x88\x9ad<sub>k</sub>\
: the median max\
 p goes from {mu\
p_sqrt_maxp_64} \
at d<sub>k</sub>\
 = 64 to {mup_sq\
rt_maxp_256} at \
256 and {mup_sqr\
t_maxp_1024} at \
1024, where \xe2\x80\x96J\
\xe2\x80\x96<sub>F</sub> \
is {mup_sqrt_jac\
_1024}: as colla\
psed as raw logi\
ts at initialisa\
tion. The same t\
raining signal g\
ives a wide head\
 a frozen softma\
x and a narrow o\
ne a responsive \
one. microsoft/m\
up's q\xc2\xb7k\xe1\xb5\x80\xc2\xb78/\
d (equal to 1/\xe2\x88\
\x9ad at d = 64; th\
e preset's \xcf\x84 = \
1/8) holds the l\
ead at 8\xcf\x81: max \
p {mup_8d_maxp} \
at every d<sub>k\
</sub> from 256 \
up. That is \xce\xbcP'\
s argument. Plai\
n \xc3\xb7d<sub>k</sub\
> holds it at \xcf\x81\
, max p {mup_dk_\
maxp}, barely ab\
ove 1/64.</p>\x0a<p\
>Which key wins \
does not decide \
between them: th\
e top key is the\
 aligned one in \
{mup_right} of r\
ows for every po\
sitive scale (a \
positive factor \
does not change \
the argmax). \xce\xbcP\
 also zero-initi\
alises the query\
, so attention s\
tarts uniform by\
 design. The pan\
els draw the pre\
set: \xc3\xb7d<sub>k</\
sub> at \xcf\x84 = 1/8\
 (their keys say\
 so), so their \xc3\
\xb7\xe2\x88\x9ad<sub>k</sub\
> and raw curves\
 are at \xcf\x84 = 1/8\
 too.</p>\x0a\
\x00\x00\x04\xfc\
<\
h2>4 \xc2\xb7 Divide b\
y \xe2\x88\x9ad<sub>k</su\
b></h2>\x0a<p>The f\
ix of Vaswani et\
 al. (2017, \xc2\xa73.\
2.1) is one line\
: z = q\xc2\xb7k / \xe2\x88\x9a\
d<sub>k</sub>. W\
hat does it do t\
o the spread of \
the logits, at e\
very head size?<\
/p>\x0a<!-- reveal \
-->\x0a<p>Dividing \
every logit by \xe2\
\x88\x9ad<sub>k</sub> \
divides its vari\
ance by d<sub>k<\
/sub>: under ste\
p 1's assumption\
s (independent u\
nit-variance ent\
ries) z = q\xc2\xb7k /\
 \xe2\x88\x9ad<sub>k</sub\
> has <b>varianc\
e 1 at every hea\
d size</b>.</p>\x0a\
<p>The blue curv\
es in panels 3 a\
nd 4 stay nearly\
 flat from d<sub\
>k</sub> = 4 to \
4096 (median \xe2\x80\x96\
J\xe2\x80\x96<sub>F</sub>\
 {step4_jac}, \xe2\x80\
\x96\xe2\x88\x82L/\xe2\x88\x82q\xe2\x80\x96 {s\
tep4_grad}) and \
no row saturates\
 ({step4_saturat\
ed}). So <i>at i\
nitialisation</i\
> one learning r\
ate sees the sam\
e gradient scale\
 at every head s\
ize; whether tha\
t survives train\
ing is \xce\xbcP's que\
stion.</p>\x0a<p>Sa\
turation should \
come later, on t\
he right key: wi\
th queries leani\
ng towards their\
 keys (alignment\
 \xcf\x81 = 0.5), \xc3\xb7\xe2\x88\
\x9ad<sub>k</sub> a\
t d<sub>k</sub> \
= 512 saturates \
{aligned_saturat\
ed} of rows, {al\
igned_right} on \
that key.</p>\x0a<p\
>Vaswani et al. \
(2017, \xc2\xa73.2.1) \
state the reason\
 as a suspicion:\
 large dot produ\
cts push softmax\
 into regions wi\
th extremely sma\
ll gradients. Pr\
ess <b>R</b> and\
 <b>S</b> to fli\
p raw and scaled\
. Why \xcf\x83 = 1 and\
 not 3: the <a h\
ref=\x22scenario:si\
gma_dial\x22>\xcf\x83 dia\
l</a>.</p>\x0a\
\x00\x00\x05\xd9\
<\
h3>Follow-up: bf\
loat16 and float\
8</h3>\x0a<p>bfloat\
16 has float32's\
 range but 8 sig\
nificand bits: n\
ear |z| = 64 its\
 values are 0.5 \
apart, so a logi\
t rounds by up t\
o 0.25, and sinc\
e a weight depen\
ds on two logits\
 (its own and th\
e largest) it ca\
n move by up to \
e<sup>0.5</sup> \
\xe2\x88\x92 1 \xe2\x89\x88 65 %. \
float8 E4M3's la\
rgest value is 4\
48: <i>ml-dtypes\
</i>' cast turns\
 anything beyond\
 it into NaN, wh\
ile Transformer-\
Engine-style cas\
ts saturate to \xc2\
\xb1448; E5M2 reach\
es 57 344 (beyon\
d: inf) (Micikev\
icius et al. 202\
2). The model ro\
unds the <i>logi\
ts</i> to the ty\
pe and runs the \
softmax in float\
32: an unfused p\
ipeline. Fused k\
ernels (FlashAtt\
ention 2/3) keep\
 S = QK\xe1\xb5\x80 in fl\
oat32 accumulato\
rs and round q, \
k and the weight\
s instead; none \
stores logits in\
 E4M3, so the E4\
M3 columns model\
 no kernel. The \
<i>kernel</i> co\
lumns model a bf\
loat16 fused ker\
nel (q, k and p \
rounded, S and t\
he softmax in fl\
oat32, independe\
nt q and k). The\
 conclusion is t\
he same: at d<su\
b>k</sub> = 1024\
 its error is {k\
ernel_raw_1024} \
raw against {ker\
nel_scaled_1024}\
 with \xc3\xb7\xe2\x88\x9ad<sub\
>k</sub>, becaus\
e a logit moves \
by about |z| tim\
es the rounding \
of q and k, and \
the error grows \
with the logits.\
</p>\x0a<p>Raw logi\
ts grow like \xe2\x88\x9a\
d<sub>k</sub>, a\
nd so does their\
 rounding error;\
 \xc3\xb7\xe2\x88\x9ad<sub>k</s\
ub> keeps |z| ne\
ar 1 and the err\
or small at ever\
y head size. Tab\
le: the largest \
relative weight \
error of a query\
 row (weights \xe2\x89\
\xa5 0.1/n), 90th p\
ercentile over r\
ows, against flo\
at64. <code>sqrt\
dk-gui stats --d\
type bfloat16</c\
ode> prints it t\
oo.</p>\x0a\
\x00\x00\x0bA\
<\
h3>Follow-up: wh\
at interviewers \
ask</h3>\x0a<p><b>W\
hy \xe2\x88\x9ad<sub>k</s\
ub>, and why \xcf\x83 \
\xe2\x89\x88 1?</b> \xc3\xb7\xe2\x88\x9a\
d<sub>k</sub> is\
 fan-in normalis\
ation (LeCun et \
al. 1998; Glorot\
 &amp; Bengio 20\
10) applied to t\
he bilinear form\
 q\xc2\xb7k: a sum of \
d<sub>k</sub> in\
dependent produc\
ts has variance \
d<sub>k</sub>, s\
o it is divided \
by the square ro\
ot of its fan-in\
, as a linear la\
yer's weights ar\
e. The target \xcf\x83\
 = 1 is a conven\
tion: W<sub>Q</s\
ub> and W<sub>K<\
/sub> can rescal\
e it, and over 6\
4 keys softmax s\
tays responsive \
from \xcf\x83 = 1 to 4\
 (median \xe2\x80\x96J\xe2\x80\x96\
<sub>F</sub> {te\
mp_jac_1} at \xcf\x83 \
= 1, {temp_jac_4\
} at \xcf\x83 = 4, {te\
mp_jac_8} at \xcf\x83 \
= 8; the <a href\
=\x22scenario:sigma\
_dial\x22>\xcf\x83 dial</\
a>). What matter\
s is that \xcf\x83 doe\
s not depend on \
d<sub>k</sub>: w\
ith \xc3\xb7\xe2\x88\x9ad<sub>k\
</sub> the media\
n \xe2\x80\x96J\xe2\x80\x96<sub>F<\
/sub> is {step4_\
jac} at every he\
ad size from 4 t\
o 4096.</p>\x0a<p><\
b>Why not fold 1\
/\xe2\x88\x9ad<sub>k</sub\
> into W<sub>Q</\
sub>'s initialis\
ation?</b> At in\
itialisation the\
 forward pass is\
 identical. The \
optimisation is \
not: with c = 1/\
\xe2\x88\x9ad<sub>k</sub>\
, the gradient o\
f the explicit W\
<sub>Q</sub> is \
c\xc2\xb7G and that of\
 the folded W<su\
b>Q</sub>\xe2\x80\xb2 is \
G, while the log\
its feel W<sub>Q\
</sub> through c\
 and W<sub>Q</su\
b>\xe2\x80\xb2 directly. \
So one SGD step \
through W<sub>Q<\
/sub> moves the \
logits <b>d<sub>\
k</sub> times</b\
> more when fold\
ed; Adam's steps\
 have the same s\
ize whatever the\
 gradient's scal\
e, so folded the\
y move them <b>\xe2\
\x88\x9ad<sub>k</sub> \
times</b> more. \
W<sub>K</sub> is\
 unaffected. The\
 table below mea\
sures one step o\
n the Training l\
ab's own model. \
A learning rate \
tuned for one fo\
rm is wrong for \
the other: why t\
he lab sweeps th\
e rate instead o\
f sharing one, a\
nd the parametri\
sation argument \
behind <a href=\x22\
scenario:mup\x22>\xce\xbc\
P</a>.</p>\x0a<p><b\
>What does the b\
ackward pass do \
with the scale?<\
/b> \xe2\x88\x82L/\xe2\x88\x82z = \
J \xe2\x88\x82L/\xe2\x88\x82p depe\
nds on the logit\
s only; \xe2\x88\x82L/\xe2\x88\x82\
q = c K\xe1\xb5\x80 \xe2\x88\x82L/\
\xe2\x88\x82z carries c i\
tself. So at sma\
ll d<sub>k</sub>\
, where both sof\
tmaxes respond, \
raw gradients ar\
e larger: the me\
dian \xe2\x80\x96\xe2\x88\x82L/\xe2\x88\x82\
q\xe2\x80\x96 raw over \xc3\xb7\
\xe2\x88\x9ad<sub>k</sub>\
 is {backward_ra\
w_4} at d<sub>k<\
/sub> = 4 and {b\
ackward_raw_16} \
at 16, more than\
 \xe2\x88\x9ad<sub>k</sub\
> because raw's \
wider logits als\
o sit nearer sof\
tmax's most resp\
onsive spread. F\
rom d<sub>k</sub\
> \xe2\x89\x88 {step3_cro\
ssover} on, satu\
ration wins and \
raw's gradient c\
ollapses (step 3\
).</p>\x0a<p><b>Ini\
tialisation or t\
raining?</b> \xc3\xb7\xe2\
\x88\x9ad<sub>k</sub> \
fixes the logits\
' spread at init\
ialisation only.\
 Training aligns\
 q with its keys\
 and the logits \
grow. In the Tra\
ining lab's runs\
 at SGD rate 5 (\
the largest |log\
it| of a batch, \
d<sub>k</sub> = \
256), raw logits\
 grow from 55\xe2\x80\x93\
71 at the first \
step to 10\xe2\x81\xb4\xe2\x80\x93\
10\xe2\x81\xb6 by step 40\
0, and even \xc3\xb7\xe2\x88\
\x9ad<sub>k</sub>'s\
 go from 3.4\xe2\x80\x934\
.4 to 16\xe2\x80\x9323. A\
t scale this gro\
wth destabilises\
 training (Dehgh\
ani et al. 2023,\
 ViT-22B; Wortsm\
an et al. 2023) \
and collapses at\
tention entropy \
(Zhai et al. 202\
3); <a href=\x22sce\
nario:qk_norm\x22>Q\
K-normalisation<\
/a> and \xcf\x83Repara\
m bound it.</p>\x0a\
\
\x00\x00\x04]\
<\
h3>Trap: a scale\
 derived from th\
e sequence lengt\
h</h3>\x0a<p>Each l\
ogit is one dot \
product of d<sub\
>k</sub> terms; \
the number of ke\
ys n does not en\
ter its variance\
. <i>Replacing</\
i> 1/\xe2\x88\x9ad<sub>k<\
/sub> by 1/\xe2\x88\x9an \
gives \xcf\x83 = \xe2\x88\x9a(d\
<sub>k</sub>/n):\
 too wide for sh\
ort contexts, to\
o flat for long \
ones. Its n = 25\
6 row shows \xcf\x83 \xe2\
\x89\x88 1 only becaus\
e there n = d<su\
b>k</sub>.</p>\x0a<\
p>What n does ch\
ange is the comp\
etition: the sam\
e \xcf\x83 spreads wei\
ght thinner over\
 more keys (medi\
an max p {seqlen\
_maxp_16} at n =\
 16, {seqlen_max\
p_1024} at 1024)\
. So long-contex\
t models <i>mult\
iply</i> the \xc3\xb7\xe2\
\x88\x9ad<sub>k</sub> \
logits by a slow\
ly growing facto\
r: log n through\
out (Chiang &amp\
; Cholak 2022; s\
calable-softmax,\
 Nakanishi 2025)\
, or only past t\
he training leng\
th L (Qwen's log\
<sub>L</sub> n; \
YaRN's 0.1\xc2\xb7ln s\
 + 1 on q and k \
each, s the cont\
ext-extension ra\
tio, Peng et al.\
 2023; Llama 4 a\
t long positions\
). The last colu\
mn multiplies by\
 log<sub>64</sub\
> n past n = 64 \
(max p {seqlen_m\
axp_logn_1024} a\
t n = 1024).</p>\
\x0a<p>Practice: sp\
ot this trap in \
code, <a href=\x22b\
ug:bug_seq_len\x22>\
A scale from the\
 context length<\
/a> (practice mo\
de, I).</p>\x0a\
\x00\x00\x03\x8c\
<\
h3>Follow-up: lo\
ng context \xe2\x80\x94 \xc3\
\xb7\xe2\x88\x9an versus \xc3\x97 \
log n</h3>\x0a<p>n \
can reach 131 07\
2 keys: above 10\
24 the keys are \
streamed in bloc\
ks for a sample \
of rows. At a fi\
xed \xcf\x83 attention\
 <b>dilutes</b>:\
 max weight fall\
s, entropy grows\
 like log n (\xcf\x83 \
= 1: H \xe2\x89\x88 log n\
 \xe2\x88\x92 \xc2\xbd).</p>\x0a<p\
><b>Bug:</b> \xc3\xb7\xe2\
\x88\x9an instead of \xc3\
\xb7\xe2\x88\x9ad<sub>k</sub\
> \xe2\x80\x94 \xcf\x83 = \xe2\x88\x9a(d\
<sub>k</sub>/n) \
shrinks and atte\
ntion goes unifo\
rm. <b>Technique\
:</b> keep \xc3\xb7\xe2\x88\x9a\
d<sub>k</sub> an\
d multiply by ma\
x(1, ln n / ln 6\
4) \xe2\x80\x94 Qwen's lo\
gn attention wit\
h a training len\
gth of 64. Scala\
ble-softmax mult\
iplies by s\xc2\xb7ln \
n everywhere, wi\
th no max(1, \xc2\xb7)\
 (Nakanishi 2025\
; Chiang &amp; C\
holak 2022 use l\
og n); YaRN mult\
iplies q and k e\
ach by 0.1\xc2\xb7ln s\
 + 1, where s is\
 the context-ext\
ension ratio, so\
 its logits grow\
 by (0.1\xc2\xb7ln s +\
 1)\xc2\xb2. Here \xcf\x83 g\
rows to 2.83 at \
131 072 keys, en\
ough to keep the\
 largest weight \
from diluting th\
e way plain \xc3\xb7\xe2\x88\
\x9ad<sub>k</sub>'s\
 does.</p>\x0a\
\x00\x00\x03\xa7\
<\
h3>Follow-up: te\
mperature</h3>\x0a<\
p>A temperature \
\xcf\x84 divides the l\
ogits, so \xcf\x84 and\
 the scale multi\
ply into one <b>\
effective spread\
</b> \xcf\x83 = \xe2\x88\x9ad<s\
ub>k</sub> \xc2\xb7 sc\
ale / \xcf\x84. Dividi\
ng raw logits by\
 \xe2\x88\x9ad<sub>k</sub\
> is \xcf\x84 = \xe2\x88\x9ad<s\
ub>k</sub>; a fi\
xed \xcf\x84 fits one \
head size only.<\
/p>\x0a<p>What matt\
ers is \xcf\x83, for t\
he number of key\
s n. With 64 key\
s (medians over \
rows): \xcf\x83 = 1 gi\
ves max p {temp_\
maxp_1}, \xe2\x80\x96J\xe2\x80\x96\
<sub>F</sub> {te\
mp_jac_1}; near \
\xcf\x83 = 4 it is mos\
t responsive, ma\
x p {temp_maxp_4\
}, \xe2\x80\x96J\xe2\x80\x96<sub>F\
</sub> {temp_jac\
_4}, only {temp_\
sat_4} of rows s\
aturated; satura\
tion begins near\
 \xcf\x83 \xe2\x89\x88 8 ({temp\
_sat_8} of rows,\
 \xe2\x80\x96J\xe2\x80\x96<sub>F</\
sub> {temp_jac_8\
}). More keys mo\
ve the window up\
 slowly: at \xcf\x83 =\
 8 with 1024 key\
s {temp_sat_8_n1\
024} saturate. T\
he table uses th\
e current n.</p>\
\x0a<p>The preset, \
\xcf\x84 = 8 at d<sub>\
k</sub> = 1024, \
is \xcf\x83 = 4: respo\
nsive, not satur\
ating. The whole\
 curve, for any \
n: the <a href=\x22\
scenario:sigma_d\
ial\x22>\xcf\x83 dial</a>\
.</p>\x0a\
\x00\x00\x04\xc2\
<\
h3>Follow-up: wh\
y \xcf\x83 \xe2\x89\x88 1 and n\
ot 3?</h3>\x0a<p>Th\
e softmax only s\
ees the spread \xcf\
\x83 of its logits.\
 The <b>\xcf\x83 dial<\
/b> (tab <b>5 \xc2\xb7\
 \xcf\x83 dial</b>, ke\
y <b>D</b>) plot\
s, for n keys, t\
he median max we\
ight, entropy / \
log n and \xe2\x80\x96J\xe2\x80\
\x96<sub>F</sub> of\
 Gaussian logits\
 of spread \xcf\x83 (8\
 seeds, 10\xe2\x80\x9390 \
% band): curves \
of n alone. At n\
 = 64, \xe2\x80\x96J\xe2\x80\x96<s\
ub>F</sub> peaks\
 near \xcf\x83 \xe2\x89\x88 3\xe2\x80\
\x934 and collapses\
 beyond \xcf\x83 \xe2\x89\x88 8\
; for \xcf\x83 \xe2\x89\xaa 1 a\
ttention is unif\
orm.</p>\x0a<p>Each\
 scaling is a po\
int on it: raw l\
ogits sit at \xcf\x83 \
= \xe2\x88\x9ad<sub>k</su\
b> and slide out\
 of the window a\
s d<sub>k</sub> \
grows, \xc3\xb7\xe2\x88\x9ad<su\
b>k</sub> stays \
at 1, a temperat\
ure \xcf\x84 moves eve\
ry point by 1/\xcf\x84\
. <b>Any \xcf\x83 that\
 does not grow w\
ith d<sub>k</sub\
> works</b> (\xcf\x83 \
= 3 too, and W<s\
ub>Q</sub>, W<su\
b>K</sub> can re\
scale); \xc3\xb7\xe2\x88\x9ad<s\
ub>k</sub> is th\
e choice that ma\
kes it 1 for eve\
ry head size (Va\
swani et al. 201\
7, \xc2\xa73.2.1). The\
 window moves wi\
th n, and faster\
 than the larges\
t of n Gaussians\
 (\xe2\x88\x9a(2 ln n)): \
its \xe2\x80\x96J\xe2\x80\x96<sub>\
F</sub> peak mov\
es from \xcf\x83 \xe2\x89\x88 3\
 at n = 16 to \xcf\x83\
 \xe2\x89\x88 7 at n = 16\
 384, roughly in\
 proportion to l\
n n, and from n \
= 256 keys on \xcf\x83\
 = 1 lies below \
the responsive w\
indow. That, and\
 not \xe2\x88\x9a(2 ln n)\
, is the bridge \
to the log-n sca\
ling of long-con\
text models.</p>\
\x0a\
\x00\x00\x05B\
<\
h2>2 \xc2\xb7 Softmax \
of wide logits</\
h2>\x0a<p>Softmax t\
urns logits into\
 weights p<sub>j\
</sub> = e<sup>z\
<sub>j</sub></su\
p> / \xce\xa3<sub>i</s\
ub> e<sup>z<sub>\
i</sub></sup>. O\
nly differences \
matter: a gap \xce\x94\
 between two log\
its is a weight \
ratio e<sup>\xce\x94</\
sup>, and e<sup>\
7</sup> \xe2\x89\x88 1100\
.</p>\x0a<!-- revea\
l -->\x0a<p>At d<su\
b>k</sub> = 512 \
without scaling \
(\xcf\x83 \xe2\x89\x88 22.6, 64\
 keys) a query's\
 largest logit b\
eats its second \
by {step2_top_ga\
p} (median). The\
 median query le\
aves only {step2\
_rest} of its we\
ight to the othe\
r 63 keys, and {\
step2_saturated}\
 of queries are \
<i>saturated</i>\
 (largest weight\
 above 0.99). Pa\
nel 2 shows one \
query's weights,\
 sorted.</p>\x0a<p>\
Saturation is no\
t bad in itself:\
 a trained head \
<i>should</i> co\
mmit to the righ\
t key. The harm \
is saturating at\
 initialisation,\
 on a key picked\
 by chance, befo\
re anything is l\
earned: step 3 s\
hows how little \
gradient such a \
row passes back.\
 It can still mo\
ve, but slowly, \
carried by the r\
are rows that ha\
ppen to be near \
a tie, and only \
at well-chosen l\
earning rates. I\
n the training l\
ab (d<sub>k</sub\
> = 256, SGD) ra\
w logits start w\
ith 50\xe2\x80\x9370 % of\
 their rows satu\
rated; they stil\
l reach 90 % at \
4\xe2\x80\x936 of the 9 r\
ates, but never \
from lr 2 up, an\
d with 2\xe2\x80\x934 lay\
ers raw trains a\
t none of the 9 \
SGD rates. Where\
 softmax is resp\
onsive, and why,\
 is the <a href=\
\x22scenario:sigma_\
dial\x22>\xcf\x83 dial</a\
> follow-up.</p>\
\x0a\
\x00\x00\x04\xb1\
<\
h3>Follow-up: QK\
-normalisation</\
h3>\x0a<p>Two publi\
shed forms. (a) \
LayerNorm on q a\
nd k, <i>keeping\
</i> \xc3\xb7\xe2\x88\x9ad<sub>\
k</sub> (Dehghan\
i et al. 2023, V\
iT-22B; Wortsman\
 et al. 2023): q\
 and k each have\
 norm about \xe2\x88\x9ad\
<sub>k</sub>\xc2\xb7\xce\xb3\
 (\xce\xb3 the LayerNo\
rm gain), so a l\
ogit is bounded,\
 |z| \xe2\x89\xa4 \xe2\x88\x9ad<su\
b>k</sub>\xc2\xb7\xce\xb3\xc2\xb2.\
 That does not k\
eep its variance\
 1 once training\
 aligns q with k\
, but it stops t\
he logits from d\
rifting upwards \
without bound, t\
he growth Wortsm\
an et al. and Zh\
ai et al. tie to\
 instability and\
 attention-entro\
py collapse. (b)\
 L2-normalise q \
and k and multip\
ly by a gain g (\
Henry et al. 202\
0): each logit i\
s g\xc2\xb7cos \xce\xb8, in \
[\xe2\x88\x92g, g].</p>\x0a<\
p>For independen\
t directions cos\
 \xce\xb8 has standard\
 deviation 1/\xe2\x88\x9a\
d<sub>k</sub>, s\
o \xcf\x83 = g/\xe2\x88\x9ad<su\
b>k</sub>. A sma\
ll fixed g gives\
 near-uniform at\
tention: g = 4 a\
t d<sub>k</sub> \
= 1024 is \xcf\x83 = 0\
.125, max p {qkn\
orm_g4_maxp} aga\
inst uniform 1/6\
4, the \xc3\xb7\xe2\x88\x9ad<su\
b>model</sub> sy\
mptom. So g must\
 be large or lea\
rned; Henry et a\
l. learn it, sta\
rting at log<sub\
>2</sub>(n\xc2\xb2 \xe2\x88\x92\
 n) \xe2\x89\x88 12 for n\
 = 64 (the prese\
t). Once trainin\
g aligns q with \
its key, g\xc2\xb7cos \
\xce\xb8 nears g and t\
he right key win\
s at every d<sub\
>k</sub> (table,\
 \xcf\x81 = 0.9: {qkno\
rm_aligned_right\
} of rows).</p>\x0a\
\
\x00\x00\x05\x1f\
<\
h2>5 \xc2\xb7 Traps an\
d follow-ups</h2\
>\x0a<p>The chain: \
d<sub>k</sub> te\
rms \xe2\x86\x92 variance\
 d<sub>k</sub> \xe2\
\x86\x92 wide logits \xe2\
\x86\x92 saturation at\
 initialisation,\
 on arbitrary ke\
ys \xe2\x86\x92 J \xe2\x89\x88 0 \xe2\
\x86\x92 almost no gra\
dient. A cure mu\
st set the <i>sp\
read of the logi\
ts</i>, which at\
 initialisation \
is fixed by d<su\
b>k</sub>.</p>\x0a<\
p>Each trap is a\
 plausible fix t\
hat breaks a lin\
k; each follow-u\
p, a published d\
esign that handl\
es the chain ano\
ther way (the pa\
nels update live\
).</p>\x0a<p><b>Doe\
s it train worse\
?</b> The <i>Tra\
ining lab</i> ta\
b trains a small\
 attention layer\
 on recall, raw \
against \xc3\xb7\xe2\x88\x9ad<s\
ub>k</sub>, from\
 the same weight\
s. One shared le\
arning rate woul\
d not be fair (\xc3\
\xb7\xe2\x88\x9ad<sub>k</sub\
> also divides t\
he gradient thro\
ugh the logits b\
y \xe2\x88\x9ad<sub>k</su\
b>), so the lab \
sweeps it. Swept\
 over 9 learning\
 rates (0.05 \xe2\x80\xa6\
 20, SGD, d<sub>\
k</sub> = 256, s\
eeds 0\xe2\x80\x934), eac\
h at its best ra\
te: raw logits r\
each 90 % accura\
cy in 35\xe2\x80\x9360 st\
eps at lr 0.2\xe2\x80\x93\
0.5, \xc3\xb7\xe2\x88\x9ad<sub>\
k</sub> in 20\xe2\x80\x93\
22 steps at lr 5\
\xe2\x80\x9310 (20 is the\
 fewest a 20-ste\
p average can sh\
ow). Raw reaches\
 90 % at 4\xe2\x80\x936 o\
f the 9 rates (n\
ever from lr 2 u\
p), \xc3\xb7\xe2\x88\x9ad<sub>k\
</sub> at 9 of 9\
. How sharp a tr\
ained \xc3\xb7\xe2\x88\x9ad<sub\
>k</sub> head en\
ds depends on th\
e rate: 85\xe2\x80\x9395 \
% of their rows \
saturated at lr \
5, 50\xe2\x80\x9360 % at \
lr 0.5, 4\xe2\x80\x937 % \
at lr 0.05, all \
of them on the r\
ight key.</p>\x0a\
\x00\x00\x03\xc4\
<\
h2>1 \xc2\xb7 A logit \
is a sum of d<su\
b>k</sub> terms<\
/h2>\x0a<p>An atten\
tion logit is a \
dot product: z =\
 q\xc2\xb7k = q<sub>1<\
/sub>k<sub>1</su\
b> + q<sub>2</su\
b>k<sub>2</sub> \
+ \xe2\x80\xa6 + q<sub>d<\
sub>k</sub></sub\
>k<sub>d<sub>k</\
sub></sub>. Assu\
me, as Vaswani e\
t al. (2017, \xc2\xa73\
.2.1, footnote 4\
) do, that at in\
itialisation the\
 entries of q an\
d k are independ\
ent with mean 0 \
and variance 1: \
each product q<s\
ub>i</sub>k<sub>\
i</sub> then has\
 mean 0 and vari\
ance 1.</p>\x0a<!--\
 reveal -->\x0a<p>V\
ariances of inde\
pendent terms ad\
d: z has varianc\
e d<sub>k</sub> \
and <b>\xcf\x83 = \xe2\x88\x9ad\
<sub>k</sub></b>\
, 8 at d<sub>k</\
sub> = 64 and 22\
.6 at 512 (sampl\
ed: {step1_sigma\
_512} over 32 se\
eds). No entry g\
ot bigger; there\
 are just more t\
erms.</p>\x0a<p>Wat\
ch panel 1 as d<\
sub>k</sub> grow\
s: the histogram\
 widens with \xe2\x88\x9a\
d<sub>k</sub>. T\
he normal curve \
N(0, d<sub>k</su\
b>) is only the \
large-d<sub>k</s\
ub> limit: at d<\
sub>k</sub> = 2 \
the exact densit\
y is e<sup>\xe2\x88\x92|z\
|</sup>/2, peak \
0.5 against the \
normal's 0.28.</\
p>\x0a\
\x00\x00\x03\x9d\
<\
h3>Trap: dividin\
g by \xe2\x88\x9ad<sub>mo\
del</sub> instea\
d of \xe2\x88\x9ad<sub>k<\
/sub></h3>\x0a<p>Ea\
ch head's logit \
sums over its ow\
n d<sub>k</sub> \
entries, not ove\
r d<sub>model</s\
ub> = h\xc2\xb7d<sub>k\
</sub>. Dividing\
 by \xe2\x88\x9a(h\xc2\xb7d<sub\
>k</sub>) leaves\
 \xcf\x83 = 1/\xe2\x88\x9ah: wi\
th 8 heads 1/\xe2\x88\x9a\
8 \xe2\x89\x88 0.35 (meas\
ured {dmodel_sig\
ma}). At initial\
isation the weig\
hts are nearly u\
niform (median e\
ntropy {dmodel_e\
ntropy} of log 6\
4 = 4.16) and th\
e gradient reach\
ing a query is {\
dmodel_grad_rati\
o} smaller than \
with \xc3\xb7\xe2\x88\x9ad<sub>\
k</sub>.</p>\x0a<p>\
Near-uniform att\
ention at the st\
art is not fatal\
 in itself (\xce\xbcP \
even zero-initia\
lises the query)\
. The flaw is a \
scale tied to th\
e number of head\
s: the scales of\
 W<sub>q</sub> a\
nd W<sub>k</sub>\
 must grow by a \
combined \xe2\x88\x9ah be\
fore attention c\
an select, and t\
hat handicap cha\
nges whenever h \
does.</p>\x0a<p>Pra\
ctice: spot this\
 trap in code, <\
a href=\x22bug:bug_\
head_embd\x22>A hea\
d scaled by the \
embedding width<\
/a> (practice mo\
de, I).</p>\x0a\
\x00\x00\x03\x8b\
<\
h3>Trap: \xe2\x80\x9cstab\
le softmax fixes\
 it\xe2\x80\x9d</h3>\x0a<p>S\
ubtracting the r\
ow maximum chang\
es how softmax i\
s <i>evaluated</\
i>, not what it \
<i>is</i>: softm\
ax(z \xe2\x88\x92 c) = so\
ftmax(z). At d<s\
ub>k</sub> = 512\
 without scaling\
 the largest log\
it reaches {stab\
le_max_logit}. N\
aive float16 ove\
rflows above 11.\
09, so it return\
s NaN for {stabl\
e_naive16_nan} o\
f the rows: no w\
eights at all. N\
aive float32 ove\
rflows only abov\
e 88.72 ({stable\
_naive32_nan_row\
s} NaN rows, dep\
ending on the se\
ed); where it st\
ays finite it ag\
rees with the st\
able version to \
{stable_f32_diff\
}.</p>\x0a<p>The st\
able program ret\
urns the true so\
ftmax, and it is\
 still saturated\
 with \xe2\x80\x96J\xe2\x80\x96 \xe2\x89\
\x88 0. Stability c\
ures overflow, n\
ot saturation. T\
he table's max p\
 and \xe2\x80\x96J\xe2\x80\x96 com\
e from the weigh\
ts each program \
returns, over th\
e rows that stay\
ed finite.</p>\x0a<\
p>Practice: spot\
 this trap in co\
de, <a href=\x22bug\
:bug_missing\x22>No\
 scale at all</a\
> (practice mode\
, I).</p>\x0a\
\x00\x00\x04?\
<\
h2>3 \xc2\xb7 What rea\
ches the queries\
</h2>\x0a<p>Learnin\
g needs to know \
how the weights \
change when a lo\
git changes: the\
 softmax Jacobia\
n <b>J = diag(p)\
 \xe2\x88\x92 p p\xe1\xb5\x80</b>,\
 entry (i, j) = \
p<sub>i</sub>(\xce\xb4\
<sub>ij</sub> \xe2\x88\
\x92 p<sub>j</sub>)\
. For one-hot p \
every entry is 0\
.</p>\x0a<!-- revea\
l -->\x0a<p>The gra\
dient reaching a\
 query, \xe2\x88\x82L/\xe2\x88\x82\
q = (scale) \xc2\xb7 K\
\xe1\xb5\x80 J \xe2\x88\x82L/\xe2\x88\x82p,\
 passes <i>throu\
gh</i> J. Withou\
t scaling the me\
dian \xe2\x80\x96\xe2\x88\x82L/\xe2\x88\x82\
q\xe2\x80\x96 is at first\
 <i>larger</i> t\
han with \xc3\xb7\xe2\x88\x9ad<\
sub>k</sub>, unt\
il d<sub>k</sub>\
 \xe2\x89\x88 {step3_cros\
sover}: the chai\
n rule brings th\
e scale in, \xe2\x88\x82z\
/\xe2\x88\x82q = c\xc2\xb7k wit\
h c = 1 raw and \
1/\xe2\x88\x9ad<sub>k</su\
b> scaled, while\
 \xe2\x88\x82L/\xe2\x88\x82z itsel\
f does not depen\
d on c. Then J c\
rushes it: {step\
3_ratio_1024} sm\
aller than with \
\xc3\xb7\xe2\x88\x9ad<sub>k</su\
b> at d<sub>k</s\
ub> = 1024, {ste\
p3_ratio_4096} a\
t 4096 (panels 3\
 and 4, vermilli\
on).</p>\x0a<p>The \
mean hides this:\
 a few near-tie \
rows still get l\
arge gradients (\
dotted line in p\
anel 4; at d<sub\
>k</sub> = 2048 \
the raw mean is \
{step3_mean_rati\
o} the \xc3\xb7\xe2\x88\x9ad<su\
b>k</sub> median\
). Learning rest\
s on rare rows w\
hile most querie\
s receive almost\
 nothing.</p>\x0a\
\x00\x00\x02D\
<\
h3>Trap: scaling\
 after the softm\
ax</h3>\x0a<p>Divid\
ing the <i>weigh\
ts</i> by \xe2\x88\x9ad<s\
ub>k</sub> does \
nothing to satur\
ation: the softm\
ax already saw t\
he wide logits (\
{after_softmax_s\
aturated} of row\
s saturated at d\
<sub>k</sub> = 2\
56). It breaks t\
he weights inste\
ad: each row now\
 sums to 1/\xe2\x88\x9ad<\
sub>k</sub> (0.0\
625 at d<sub>k</\
sub> = 256), not\
 1, and the grad\
ient through the\
 collapsed J shr\
inks by another \
1/\xe2\x88\x9ad<sub>k</su\
b>. Watch \xe2\x80\x9crow\
 sum\xe2\x80\x9d in panel\
 2.</p>\x0a<p>Pract\
ice: spot this t\
rap in code, <a \
href=\x22bug:bug_vi\
t_after\x22>A divis\
ion in the wrong\
 place</a> (prac\
tice mode, I).</\
p>\x0a\
\x00\x00\x04\x07\
<\
h3>Trap: \xe2\x80\x9csmal\
l heads train fi\
ne, so it doesn'\
t matter\xe2\x80\x9d</h3>\
\x0a<p>At small d<s\
ub>k</sub> raw l\
ogits are not to\
o wide: at d<sub\
>k</sub> = 16, \xcf\
\x83 = 4, where sof\
tmax is <i>most<\
/i> responsive (\
see the temperat\
ure follow-up). \
So the raw softm\
ax is the more r\
esponsive one th\
ere: from d<sub>\
k</sub> = 2 to 3\
2, \xc3\xb7\xe2\x88\x9ad<sub>k<\
/sub>'s median \xe2\
\x80\x96J\xe2\x80\x96<sub>F</su\
b> is only {smal\
l_heads_ratio_sm\
all} the raw one\
 (raw ahead by u\
p to {small_head\
s_raw_adv}). The\
 two cross near \
d<sub>k</sub> \xe2\x89\
\x88 {small_heads_c\
ross}; then \xc3\xb7\xe2\x88\
\x9ad<sub>k</sub> l\
eads by {small_h\
eads_ratio_512} \
at d<sub>k</sub>\
 = 512 and {smal\
l_heads_ratio_40\
96} at 4096.</p>\
\x0a<p>This is one \
layer at initial\
isation. In a de\
ep stack such fa\
ctors combine ac\
ross layers (thr\
ough the residua\
l stream, not as\
 a plain product\
), so a modest m\
is-scaling per l\
ayer can compoun\
d. The <i>Traini\
ng lab</i> stack\
s up to four lay\
ers: with 2\xe2\x80\x934 \
layers raw train\
s at none of the\
 9 SGD rates, wh\
ile \xc3\xb7\xe2\x88\x9ad<sub>k\
</sub> still doe\
s at most of the\
m: the best rebu\
ttal of \x22small h\
eads train fine\x22\
.</p>\x0a\
\x00\x00\x06[\
<\
h3>Follow-up: \xce\xbc\
P's 1/d<sub>k</s\
ub> and alignmen\
t</h3>\x0a<p>With i\
ndependent q and\
 k, 1/d<sub>k</s\
ub> over-shrinks\
: \xcf\x83 = 1/\xe2\x88\x9ad<su\
b>k</sub>. \xce\xbcP's\
 claim (Yang et \
al. 2022, Tensor\
 Programs V) is \
about training: \
once q and k are\
 correlated, q\xc2\xb7\
k grows like d<s\
ub>k</sub>, not \
\xe2\x88\x9ad<sub>k</sub>\
, and 1/d<sub>k<\
/sub> keeps the \
logits' <i>updat\
es</i> the same \
size at every wi\
dth, so tuned hy\
perparameters tr\
ansfer across wi\
dths.</p>\x0a<p>The\
 question is <b>\
does the sharpne\
ss change with w\
idth?</b> The al\
ignment \xcf\x81 mimic\
s trained, corre\
lated q and k. A\
t a fixed \xcf\x81 = 0\
.5 the aligned k\
ey's lead under \
\xc3\xb7\xe2\x88\x9ad<sub>k</su\
b> grows like \xcf\x81\
\xe2\x88\x9ad<sub>k</sub>\
: the median max\
 p goes from {mu\
p_sqrt_maxp_64} \
at d<sub>k</sub>\
 = 64 to {mup_sq\
rt_maxp_256} at \
256 and {mup_sqr\
t_maxp_1024} at \
1024, where \xe2\x80\x96J\
\xe2\x80\x96<sub>F</sub> \
is {mup_sqrt_jac\
_1024}: as colla\
psed as raw logi\
ts at initialisa\
tion. The same t\
raining signal g\
ives a wide head\
 a frozen softma\
x and a narrow o\
ne a responsive \
one. microsoft/m\
up's q\xc2\xb7k\xe1\xb5\x80\xc2\xb78/\
d (equal to 1/\xe2\x88\
\x9ad at d = 64; th\
e preset's \xcf\x84 = \
1/8) holds the l\
ead at 8\xcf\x81: max \
p {mup_8d_maxp} \
at every d<sub>k\
</sub> from 256 \
up. That is \xce\xbcP'\
s argument. Plai\
n \xc3\xb7d<sub>k</sub\
> holds it at \xcf\x81\
, max p {mup_dk_\
maxp}, barely ab\
ove 1/64.</p>\x0a<p\
>Which key wins \
does not decide \
between them: th\
e top key is the\
 aligned one in \
{mup_right} of r\
ows for every po\
sitive scale (a \
positive factor \
does not change \
the argmax). \xce\xbcP\
 also zero-initi\
alises the query\
, so attention s\
tarts uniform by\
 design. The pan\
els draw the pre\
set: \xc3\xb7d<sub>k</\
sub> at \xcf\x84 = 1/8\
 (their keys say\
 so), so their \xc3\
\xb7\xe2\x88\x9ad<sub>k</sub\
> and raw curves\
 are at \xcf\x84 = 1/8\
 too.</p>\x0a\
\x00\x00\x04\xfc\
<\
h2>4 \xc2\xb7 Divide b\
y \xe2\x88\x9ad<sub>k</su\
b></h2>\x0a<p>The f\
ix of Vaswani et\
 al. (2017, \xc2\xa73.\
2.1) is one line\
: z = q\xc2\xb7k / \xe2\x88\x9a\
d<sub>k</sub>. W\
hat does it do t\
o the spread of \
the logits, at e\
very head size?<\
/p>\x0a<!-- reveal \
-->\x0a<p>Dividing \
every logit by \xe2\
\x88\x9ad<sub>k</sub> \
divides its vari\
ance by d<sub>k<\
/sub>: under ste\
p 1's assumption\
s (independent u\
nit-variance ent\
ries) z = q\xc2\xb7k /\
 \xe2\x88\x9ad<sub>k</sub\
> has <b>varianc\
e 1 at every hea\
d size</b>.</p>\x0a\
<p>The blue curv\
es in panels 3 a\
nd 4 stay nearly\
 flat from d<sub\
>k</sub> = 4 to \
4096 (median \xe2\x80\x96\
J\xe2\x80\x96<sub>F</sub>\
 {step4_jac}, \xe2\x80\
\x96\xe2\x88\x82L/\xe2\x88\x82q\xe2\x80\x96 {s\
tep4_grad}) and \
no row saturates\
 ({step4_saturat\
ed}). So <i>at i\
nitialisation</i\
> one learning r\
ate sees the sam\
e gradient scale\
 at every head s\
ize; whether tha\
t survives train\
ing is \xce\xbcP's que\
stion.</p>\x0a<p>Sa\
turation should \
come later, on t\
he right key: wi\
th queries leani\
ng towards their\
 keys (alignment\
 \xcf\x81 = 0.5), \xc3\xb7\xe2\x88\
\x9ad<sub>k</sub> a\
t d<sub>k</sub> \
= 512 saturates \
{aligned_saturat\
ed} of rows, {al\
igned_right} on \
that key.</p>\x0a<p\
>Vaswani et al. \
(2017, \xc2\xa73.2.1) \
state the reason\
 as a suspicion:\
 large dot produ\
cts push softmax\
 into regions wi\
th extremely sma\
ll gradients. Pr\
ess <b>R</b> and\
 <b>S</b> to fli\
p raw and scaled\
. Why \xcf\x83 = 1 and\
 not 3: the <a h\
ref=\x22scenario:si\
gma_dial\x22>\xcf\x83 dia\
l</a>.</p>\x0a\
\x00\x00\x05\xd9\
<\
h3>Follow-up: bf\
loat16 and float\
8</h3>\x0a<p>bfloat\
16 has float32's\
 range but 8 sig\
nificand bits: n\
ear |z| = 64 its\
 values are 0.5 \
apart, so a logi\
t rounds by up t\
o 0.25, and sinc\
e a weight depen\
ds on two logits\
 (its own and th\
e largest) it ca\
n move by up to \
e<sup>0.5</sup> \
\xe2\x88\x92 1 \xe2\x89\x88 65 %. \
float8 E4M3's la\
rgest value is 4\
48: <i>ml-dtypes\
</i>' cast turns\
 anything beyond\
 it into NaN, wh\
ile Transformer-\
Engine-style cas\
ts saturate to \xc2\
\xb1448; E5M2 reach\
es 57 344 (beyon\
d: inf) (Micikev\
icius et al. 202\
2). The model ro\
unds the <i>logi\
ts</i> to the ty\
pe and runs the \
softmax in float\
32: an unfused p\
ipeline. Fused k\
ernels (FlashAtt\
ention 2/3) keep\
 S = QK\xe1\xb5\x80 in fl\
oat32 accumulato\
rs and round q, \
k and the weight\
s instead; none \
stores logits in\
 E4M3, so the E4\
M3 columns model\
 no kernel. The \
<i>kernel</i> co\
lumns model a bf\
loat16 fused ker\
nel (q, k and p \
rounded, S and t\
he softmax in fl\
oat32, independe\
nt q and k). The\
 conclusion is t\
he same: at d<su\
b>k</sub> = 1024\
 its error is {k\
ernel_raw_1024} \
raw against {ker\
nel_scaled_1024}\
 with \xc3\xb7\xe2\x88\x9ad<sub\
>k</sub>, becaus\
e a logit moves \
by about |z| tim\
es the rounding \
of q and k, and \
the error grows \
with the logits.\
</p>\x0a<p>Raw logi\
ts grow like \xe2\x88\x9a\
d<sub>k</sub>, a\
nd so does their\
 rounding error;\
 \xc3\xb7\xe2\x88\x9ad<sub>k</s\
ub> keeps |z| ne\
ar 1 and the err\
or small at ever\
y head size. Tab\
le: the largest \
relative weight \
error of a query\
 row (weights \xe2\x89\
\xa5 0.1/n), 90th p\
ercentile over r\
ows, against flo\
at64. <code>sqrt\
dk-gui stats --d\
type bfloat16</c\
ode> prints it t\
oo.</p>\x0a\
\x00\x00\x0bA\
<\
h3>Follow-up: wh\
at interviewers \
ask</h3>\x0a<p><b>W\
hy \xe2\x88\x9ad<sub>k</s\
ub>, and why \xcf\x83 \
\xe2\x89\x88 1?</b> \xc3\xb7\xe2\x88\x9a\
d<sub>k</sub> is\
 fan-in normalis\
ation (LeCun et \
al. 1998; Glorot\
 &amp; Bengio 20\
10) applied to t\
he bilinear form\
 q\xc2\xb7k: a sum of \
d<sub>k</sub> in\
dependent produc\
ts has variance \
d<sub>k</sub>, s\
o it is divided \
by the square ro\
ot of its fan-in\
, as a linear la\
yer's weights ar\
e. The target \xcf\x83\
 = 1 is a conven\
tion: W<sub>Q</s\
ub> and W<sub>K<\
/sub> can rescal\
e it, and over 6\
4 keys softmax s\
tays responsive \
from \xcf\x83 = 1 to 4\
 (median \xe2\x80\x96J\xe2\x80\x96\
<sub>F</sub> {te\
mp_jac_1} at \xcf\x83 \
= 1, {temp_jac_4\
} at \xcf\x83 = 4, {te\
mp_jac_8} at \xcf\x83 \
= 8; the <a href\
=\x22scenario:sigma\
_dial\x22>\xcf\x83 dial</\
a>). What matter\
s is that \xcf\x83 doe\
s not depend on \
d<sub>k</sub>: w\
ith \xc3\xb7\xe2\x88\x9ad<sub>k\
</sub> the media\
n \xe2\x80\x96J\xe2\x80\x96<sub>F<\
/sub> is {step4_\
jac} at every he\
ad size from 4 t\
o 4096.</p>\x0a<p><\
b>Why not fold 1\
/\xe2\x88\x9ad<sub>k</sub\
> into W<sub>Q</\
sub>'s initialis\
ation?</b> At in\
itialisation the\
 forward pass is\
 identical. The \
optimisation is \
not: with c = 1/\
\xe2\x88\x9ad<sub>k</sub>\
, the gradient o\
f the explicit W\
<sub>Q</sub> is \
c\xc2\xb7G and that of\
 the folded W<su\
b>Q</sub>\xe2\x80\xb2 is \
G, while the log\
its feel W<sub>Q\
</sub> through c\
 and W<sub>Q</su\
b>\xe2\x80\xb2 directly. \
So one SGD step \
through W<sub>Q<\
/sub> moves the \
logits <b>d<sub>\
k</sub> times</b\
> more when fold\
ed; Adam's steps\
 have the same s\
ize whatever the\
 gradient's scal\
e, so folded the\
y move them <b>\xe2\
\x88\x9ad<sub>k</sub> \
times</b> more. \
W<sub>K</sub> is\
 unaffected. The\
 table below mea\
sures one step o\
n the Training l\
ab's own model. \
A learning rate \
tuned for one fo\
rm is wrong for \
the other: why t\
he lab sweeps th\
e rate instead o\
f sharing one, a\
nd the parametri\
sation argument \
behind <a href=\x22\
scenario:mup\x22>\xce\xbc\
P</a>.</p>\x0a<p><b\
>What does the b\
ackward pass do \
with the scale?<\
/b> \xe2\x88\x82L/\xe2\x88\x82z = \
J \xe2\x88\x82L/\xe2\x88\x82p depe\
nds on the logit\
s only; \xe2\x88\x82L/\xe2\x88\x82\
q = c K\xe1\xb5\x80 \xe2\x88\x82L/\
\xe2\x88\x82z carries c i\
tself. So at sma\
ll d<sub>k</sub>\
, where both sof\
tmaxes respond, \
raw gradients ar\
e larger: the me\
dian \xe2\x80\x96\xe2\x88\x82L/\xe2\x88\x82\
q\xe2\x80\x96 raw over \xc3\xb7\
\xe2\x88\x9ad<sub>k</sub>\
 is {backward_ra\
w_4} at d<sub>k<\
/sub> = 4 and {b\
ackward_raw_16} \
at 16, more than\
 \xe2\x88\x9ad<sub>k</sub\
> because raw's \
wider logits als\
o sit nearer sof\
tmax's most resp\
onsive spread. F\
rom d<sub>k</sub\
> \xe2\x89\x88 {step3_cro\
ssover} on, satu\
ration wins and \
raw's gradient c\
ollapses (step 3\
).</p>\x0a<p><b>Ini\
tialisation or t\
raining?</b> \xc3\xb7\xe2\
\x88\x9ad<sub>k</sub> \
fixes the logits\
' spread at init\
ialisation only.\
 Training aligns\
 q with its keys\
 and the logits \
grow. In the Tra\
ining lab's runs\
 at SGD rate 5 (\
the largest |log\
it| of a batch, \
d<sub>k</sub> = \
256), raw logits\
 grow from 55\xe2\x80\x93\
71 at the first \
step to 10\xe2\x81\xb4\xe2\x80\x93\
10\xe2\x81\xb6 by step 40\
0, and even \xc3\xb7\xe2\x88\
\x9ad<sub>k</sub>'s\
 go from 3.4\xe2\x80\x934\
.4 to 16\xe2\x80\x9323. A\
t scale this gro\
wth destabilises\
 training (Dehgh\
ani et al. 2023,\
 ViT-22B; Wortsm\
an et al. 2023) \
and collapses at\
tention entropy \
(Zhai et al. 202\
3); <a href=\x22sce\
nario:qk_norm\x22>Q\
K-normalisation<\
/a> and \xcf\x83Repara\
m bound it.</p>\x0a\
\
\x00\x00\x04]\
<\
h3>Trap: a scale\
 derived from th\
e sequence lengt\
h</h3>\x0a<p>Each l\
ogit is one dot \
product of d<sub\
>k</sub> terms; \
the number of ke\
ys n does not en\
ter its variance\
. <i>Replacing</\
i> 1/\xe2\x88\x9ad<sub>k<\
/sub> by 1/\xe2\x88\x9an \
gives \xcf\x83 = \xe2\x88\x9a(d\
<sub>k</sub>/n):\
 too wide for sh\
ort contexts, to\
o flat for long \
ones. Its n = 25\
6 row shows \xcf\x83 \xe2\
\x89\x88 1 only becaus\
e there n = d<su\
b>k</sub>.</p>\x0a<\
p>What n does ch\
ange is the comp\
etition: the sam\
e \xcf\x83 spreads wei\
ght thinner over\
 more keys (medi\
an max p {seqlen\
_maxp_16} at n =\
 16, {seqlen_max\
p_1024} at 1024)\
. So long-contex\
t models <i>mult\
iply</i> the \xc3\xb7\xe2\
\x88\x9ad<sub>k</sub> \
logits by a slow\
ly growing facto\
r: log n through\
out (Chiang &amp\
; Cholak 2022; s\
calable-softmax,\
 Nakanishi 2025)\
, or only past t\
he training leng\
th L (Qwen's log\
<sub>L</sub> n; \
YaRN's 0.1\xc2\xb7ln s\
 + 1 on q and k \
each, s the cont\
ext-extension ra\
tio, Peng et al.\
 2023; Llama 4 a\
t long positions\
). The last colu\
mn multiplies by\
 log<sub>64</sub\
> n past n = 64 \
(max p {seqlen_m\
axp_logn_1024} a\
t n = 1024).</p>\
\x0a<p>Practice: sp\
ot this trap in \
code, <a href=\x22b\
ug:bug_seq_len\x22>\
A scale from the\
 context length<\
/a> (practice mo\
de, I).</p>\x0a\
\x00\x00\x03\x8c\
<\
h3>Follow-up: lo\
ng context \xe2\x80\x94 \xc3\
\xb7\xe2\x88\x9an versus \xc3\x97 \
log n</h3>\x0a<p>n \
can reach 131 07\
2 keys: above 10\
24 the keys are \
streamed in bloc\
ks for a sample \
of rows. At a fi\
xed \xcf\x83 attention\
 <b>dilutes</b>:\
 max weight fall\
s, entropy grows\
 like log n (\xcf\x83 \
= 1: H \xe2\x89\x88 log n\
 \xe2\x88\x92 \xc2\xbd).</p>\x0a<p\
><b>Bug:</b> \xc3\xb7\xe2\
\x88\x9an instead of \xc3\
\xb7\xe2\x88\x9ad<sub>k</sub\
> \xe2\x80\x94 \xcf\x83 = \xe2\x88\x9a(d\
<sub>k</sub>/n) \
shrinks and atte\
ntion goes unifo\
rm. <b>Technique\
:</b> keep \xc3\xb7\xe2\x88\x9a\
d<sub>k</sub> an\
d multiply by ma\
x(1, ln n / ln 6\
4) \xe2\x80\x94 Qwen's lo\
gn attention wit\
h a training len\
gth of 64. Scala\
ble-softmax mult\
iplies by s\xc2\xb7ln \
n everywhere, wi\
th no max(1, \xc2\xb7)\
 (Nakanishi 2025\
; Chiang &amp; C\
holak 2022 use l\
og n); YaRN mult\
iplies q and k e\
ach by 0.1\xc2\xb7ln s\
 + 1, where s is\
 the context-ext\
ension ratio, so\
 its logits grow\
 by (0.1\xc2\xb7ln s +\
 1)\xc2\xb2. Here \xcf\x83 g\
rows to 2.83 at \
131 072 keys, en\
ough to keep the\
 largest weight \
from diluting th\
e way plain \xc3\xb7\xe2\x88\
\x9ad<sub>k</sub>'s\
 does.</p>\x0a\
\x00\x00\x03\xa7\
<\
h3>Follow-up: te\
mperature</h3>\x0a<\
p>A temperature \
\xcf\x84 divides the l\
ogits, so \xcf\x84 and\
 the scale multi\
ply into one <b>\
effective spread\
</b> \xcf\x83 = \xe2\x88\x9ad<s\
ub>k</sub> \xc2\xb7 sc\
ale / \xcf\x84. Dividi\
ng raw logits by\
 \xe2\x88\x9ad<sub>k</sub\
> is \xcf\x84 = \xe2\x88\x9ad<s\
ub>k</sub>; a fi\
xed \xcf\x84 fits one \
head size only.<\
/p>\x0a<p>What matt\
ers is \xcf\x83, for t\
he number of key\
s n. With 64 key\
s (medians over \
rows): \xcf\x83 = 1 gi\
ves max p {temp_\
maxp_1}, \xe2\x80\x96J\xe2\x80\x96\
<sub>F</sub> {te\
mp_jac_1}; near \
\xcf\x83 = 4 it is mos\
t responsive, ma\
x p {temp_maxp_4\
}, \xe2\x80\x96J\xe2\x80\x96<sub>F\
</sub> {temp_jac\
_4}, only {temp_\
sat_4} of rows s\
aturated; satura\
tion begins near\
 \xcf\x83 \xe2\x89\x88 8 ({temp\
_sat_8} of rows,\
 \xe2\x80\x96J\xe2\x80\x96<sub>F</\
sub> {temp_jac_8\
}). More keys mo\
ve the window up\
 slowly: at \xcf\x83 =\
 8 with 1024 key\
s {temp_sat_8_n1\
024} saturate. T\
he table uses th\
e current n.</p>\
\x0a<p>The preset, \
\xcf\x84 = 8 at d<sub>\
k</sub> = 1024, \
is \xcf\x83 = 4: respo\
nsive, not satur\
ating. The whole\
 curve, for any \
n: the <a href=\x22\
scenario:sigma_d\
ial\x22>\xcf\x83 dial</a>\
.</p>\x0a\
\x00\x00\x04\xc2\
<\
h3>Follow-up: wh\
y \xcf\x83 \xe2\x89\x88 1 and n\
ot 3?</h3>\x0a<p>Th\
e softmax only s\
ees the spread \xcf\
\x83 of its logits.\
 The <b>\xcf\x83 dial<\
/b> (tab <b>5 \xc2\xb7\
 \xcf\x83 dial</b>, ke\
y <b>D</b>) plot\
s, for n keys, t\
he median max we\
ight, entropy / \
log n and \xe2\x80\x96J\xe2\x80\
\x96<sub>F</sub> of\
 Gaussian logits\
 of spread \xcf\x83 (8\
 seeds, 10\xe2\x80\x9390 \
% band): curves \
of n alone. At n\
 = 64, \xe2\x80\x96J\xe2\x80\x96<s\
ub>F</sub> peaks\
 near \xcf\x83 \xe2\x89\x88 3\xe2\x80\
\x934 and collapses\
 beyond \xcf\x83 \xe2\x89\x88 8\
; for \xcf\x83 \xe2\x89\xaa 1 a\
ttention is unif\
orm.</p>\x0a<p>Each\
 scaling is a po\
int on it: raw l\
ogits sit at \xcf\x83 \
= \xe2\x88\x9ad<sub>k</su\
b> and slide out\
 of the window a\
s d<sub>k</sub> \
grows, \xc3\xb7\xe2\x88\x9ad<su\
b>k</sub> stays \
at 1, a temperat\
ure \xcf\x84 moves eve\
ry point by 1/\xcf\x84\
. <b>Any \xcf\x83 that\
 does not grow w\
ith d<sub>k</sub\
> works</b> (\xcf\x83 \
= 3 too, and W<s\
ub>Q</sub>, W<su\
b>K</sub> can re\
scale); \xc3\xb7\xe2\x88\x9ad<s\
ub>k</sub> is th\
e choice that ma\
kes it 1 for eve\
ry head size (Va\
swani et al. 201\
7, \xc2\xa73.2.1). The\
 window moves wi\
th n, and faster\
 than the larges\
t of n Gaussians\
 (\xe2\x88\x9a(2 ln n)): \
its \xe2\x80\x96J\xe2\x80\x96<sub>\
F</sub> peak mov\
es from \xcf\x83 \xe2\x89\x88 3\
 at n = 16 to \xcf\x83\
 \xe2\x89\x88 7 at n = 16\
 384, roughly in\
 proportion to l\
n n, and from n \
= 256 keys on \xcf\x83\
 = 1 lies below \
the responsive w\
indow. That, and\
 not \xe2\x88\x9a(2 ln n)\
, is the bridge \
to the log-n sca\
ling of long-con\
text models.</p>\
\x0a\
\x00\x00\x05B\
<\
h2>2 \xc2\xb7 Softmax \
of wide logits</\
h2>\x0a<p>Softmax t\
urns logits into\
 weights p<sub>j\
</sub> = e<sup>z\
<sub>j</sub></su\
p> / \xce\xa3<sub>i</s\
ub> e<sup>z<sub>\
i</sub></sup>. O\
nly differences \
matter: a gap \xce\x94\
 between two log\
its is a weight \
ratio e<sup>\xce\x94</\
sup>, and e<sup>\
7</sup> \xe2\x89\x88 1100\
.</p>\x0a<!-- revea\
l -->\x0a<p>At d<su\
b>k</sub> = 512 \
without scaling \
(\xcf\x83 \xe2\x89\x88 22.6, 64\
 keys) a query's\
 largest logit b\
eats its second \
by {step2_top_ga\
p} (median). The\
 median query le\
aves only {step2\
_rest} of its we\
ight to the othe\
r 63 keys, and {\
step2_saturated}\
 of queries are \
<i>saturated</i>\
 (largest weight\
 above 0.99). Pa\
nel 2 shows one \
query's weights,\
 sorted.</p>\x0a<p>\
Saturation is no\
t bad in itself:\
 a trained head \
<i>should</i> co\
mmit to the righ\
t key. The harm \
is saturating at\
 initialisation,\
 on a key picked\
 by chance, befo\
re anything is l\
earned: step 3 s\
hows how little \
gradient such a \
row passes back.\
 It can still mo\
ve, but slowly, \
carried by the r\
are rows that ha\
ppen to be near \
a tie, and only \
at well-chosen l\
earning rates. I\
n the training l\
ab (d<sub>k</sub\
> = 256, SGD) ra\
w logits start w\
ith 50\xe2\x80\x9370 % of\
 their rows satu\
rated; they stil\
l reach 90 % at \
4\xe2\x80\x936 of the 9 r\
ates, but never \
from lr 2 up, an\
d with 2\xe2\x80\x934 lay\
ers raw trains a\
t none of the 9 \
SGD rates. Where\
 softmax is resp\
onsive, and why,\
 is the <a href=\
\x22scenario:sigma_\
dial\x22>\xcf\x83 dial</a\
> follow-up.</p>\
\x0a\
\x00\x00\x04\xb1\
<\
h3>Follow-up: QK\
-normalisation</\
h3>\x0a<p>Two publi\
shed forms. (a) \
LayerNorm on q a\
nd k, <i>keeping\
</i> \xc3\xb7\xe2\x88\x9ad<sub>\
k</sub> (Dehghan\
i et al. 2023, V\
iT-22B; Wortsman\
 et al. 2023): q\
 and k each have\
 norm about \xe2\x88\x9ad\
<sub>k</sub>\xc2\xb7\xce\xb3\
 (\xce\xb3 the LayerNo\
rm gain), so a l\
ogit is bounded,\
 |z| \xe2\x89\xa4 \xe2\x88\x9ad<su\
b>k</sub>\xc2\xb7\xce\xb3\xc2\xb2.\
 That does not k\
eep its variance\
 1 once training\
 aligns q with k\
, but it stops t\
he logits from d\
rifting upwards \
without bound, t\
he growth Wortsm\
an et al. and Zh\
ai et al. tie to\
 instability and\
 attention-entro\
py collapse. (b)\
 L2-normalise q \
and k and multip\
ly by a gain g (\
Henry et al. 202\
0): each logit i\
s g\xc2\xb7cos \xce\xb8, in \
[\xe2\x88\x92g, g].</p>\x0a<\
p>For independen\
t directions cos\
 \xce\xb8 has standard\
 deviation 1/\xe2\x88\x9a\
d<sub>k</sub>, s\
o \xcf\x83 = g/\xe2\x88\x9ad<su\
b>k</sub>. A sma\
ll fixed g gives\
 near-uniform at\
tention: g = 4 a\
t d<sub>k</sub> \
= 1024 is \xcf\x83 = 0\
.125, max p {qkn\
orm_g4_maxp} aga\
inst uniform 1/6\
4, the \xc3\xb7\xe2\x88\x9ad<su\
b>model</sub> sy\
mptom. So g must\
 be large or lea\
rned; Henry et a\
l. learn it, sta\
rting at log<sub\
>2</sub>(n\xc2\xb2 \xe2\x88\x92\
 n) \xe2\x89\x88 12 for n\
 = 64 (the prese\
t). Once trainin\
g aligns q with \
its key, g\xc2\xb7cos \
\xce\xb8 nears g and t\
he right key win\
s at every d<sub\
>k</sub> (table,\
 \xcf\x81 = 0.9: {qkno\
rm_aligned_right\
} of rows).</p>\x0a\
\
\x00\x00\x05\x1f\
<\
h2>5 \xc2\xb7 Traps an\
d follow-ups</h2\
>\x0a<p>The chain: \
d<sub>k</sub> te\
rms \xe2\x86\x92 variance\
 d<sub>k</sub> \xe2\
\x86\x92 wide logits \xe2\
\x86\x92 saturation at\
 initialisation,\
 on arbitrary ke\
ys \xe2\x86\x92 J \xe2\x89\x88 0 \xe2\
\x86\x92 almost no gra\
dient. A cure mu\
st set the <i>sp\
read of the logi\
ts</i>, which at\
 initialisation \
is fixed by d<su\
b>k</sub>.</p>\x0a<\
p>Each trap is a\
 plausible fix t\
hat breaks a lin\
k; each follow-u\
p, a published d\
esign that handl\
es the chain ano\
ther way (the pa\
nels update live\
).</p>\x0a<p><b>Doe\
s it train worse\
?</b> The <i>Tra\
ining lab</i> ta\
b trains a small\
 attention layer\
 on recall, raw \
against \xc3\xb7\xe2\x88\x9ad<s\
ub>k</sub>, from\
 the same weight\
s. One shared le\
arning rate woul\
d not be fair (\xc3\
\xb7\xe2\x88\x9ad<sub>k</sub\
> also divides t\
he gradient thro\
ugh the logits b\
y \xe2\x88\x9ad<sub>k</su\
b>), so the lab \
sweeps it. Swept\
 over 9 learning\
 rates (0.05 \xe2\x80\xa6\
 20, SGD, d<sub>\
k</sub> = 256, s\
eeds 0\xe2\x80\x934), eac\
h at its best ra\
te: raw logits r\
each 90 % accura\
cy in 35\xe2\x80\x9360 st\
eps at lr 0.2\xe2\x80\x93\
0.5, \xc3\xb7\xe2\x88\x9ad<sub>\
k</sub> in 20\xe2\x80\x93\
22 steps at lr 5\
\xe2\x80\x9310 (20 is the\
 fewest a 20-ste\
p average can sh\
ow). Raw reaches\
 90 % at 4\xe2\x80\x936 o\
f the 9 rates (n\
ever from lr 2 u\
p), \xc3\xb7\xe2\x88\x9ad<sub>k\
</sub> at 9 of 9\
. How sharp a tr\
ained \xc3\xb7\xe2\x88\x9ad<sub\
>k</sub> head en\
ds depends on th\
e rate: 85\xe2\x80\x9395 \
% of their rows \
saturated at lr \
5, 50\xe2\x80\x9360 % at \
lr 0.5, 4\xe2\x80\x937 % \
at lr 0.05, all \
of them on the r\
ight key.</p>\x0a\
\x00\x00\x03\xc4\
<\
h2>1 \xc2\xb7 A logit \
is a sum of d<su\
b>k</sub> terms<\
/h2>\x0a<p>An atten\
tion logit is a \
dot product: z =\
 q\xc2\xb7k = q<sub>1<\
/sub>k<sub>1</su\
b> + q<sub>2</su\
b>k<sub>2</sub> \
+ \xe2\x80\xa6 + q<sub>d<\
sub>k</sub></sub\
>k<sub>d<sub>k</\
sub></sub>. Assu\
me, as Vaswani e\
t al. (2017, \xc2\xa73\
.2.1, footnote 4\
) do, that at in\
itialisation the\
 entries of q an\
d k are independ\
ent with mean 0 \
and variance 1: \
each product q<s\
ub>i</sub>k<sub>\
i</sub> then has\
 mean 0 and vari\
ance 1.</p>\x0a<!--\
 reveal -->\x0a<p>V\
ariances of inde\
pendent terms ad\
d: z has varianc\
e d<sub>k</sub> \
and <b>\xcf\x83 = \xe2\x88\x9ad\
<sub>k</sub></b>\
, 8 at d<sub>k</\
sub> = 64 and 22\
.6 at 512 (sampl\
ed: {step1_sigma\
_512} over 32 se\
eds). No entry g\
ot bigger; there\
 are just more t\
erms.</p>\x0a<p>Wat\
ch panel 1 as d<\
sub>k</sub> grow\
s: the histogram\
 widens with \xe2\x88\x9a\
d<sub>k</sub>. T\
he normal curve \
N(0, d<sub>k</su\
b>) is only the \
large-d<sub>k</s\
ub> limit: at d<\
sub>k</sub> = 2 \
the exact densit\
y is e<sup>\xe2\x88\x92|z\
|</sup>/2, peak \
0.5 against the \
normal's 0.28.</\
p>\x0a\
\x00\x00\x03\x9d\
<\
h3>Trap: dividin\
g by \xe2\x88\x9ad<sub>mo\
del</sub> instea\
d of \xe2\x88\x9ad<sub>k<\
/sub></h3>\x0a<p>Ea\
ch head's logit \
sums over its ow\
n d<sub>k</sub> \
entries, not ove\
r d<sub>model</s\
ub> = h\xc2\xb7d<sub>k\
</sub>. Dividing\
 by \xe2\x88\x9a(h\xc2\xb7d<sub\
>k</sub>) leaves\
 \xcf\x83 = 1/\xe2\x88\x9ah: wi\
th 8 heads 1/\xe2\x88\x9a\
8 \xe2\x89\x88 0.35 (meas\
ured {dmodel_sig\
ma}). At initial\
isation the weig\
hts are nearly u\
niform (median e\
ntropy {dmodel_e\
ntropy} of log 6\
4 = 4.16) and th\
e gradient reach\
ing a query is {\
dmodel_grad_rati\
o} smaller than \
with \xc3\xb7\xe2\x88\x9ad<sub>\
k</sub>.</p>\x0a<p>\
Near-uniform att\
ention at the st\
art is not fatal\
 in itself (\xce\xbcP \
even zero-initia\
lises the query)\
. The flaw is a \
scale tied to th\
e number of head\
s: the scales of\
 W<sub>q</sub> a\
nd W<sub>k</sub>\
 must grow by a \
combined \xe2\x88\x9ah be\
fore attention c\
an select, and t\
hat handicap cha\
nges whenever h \
does.</p>\x0a<p>Pra\
ctice: spot this\
 trap in code, <\
a href=\x22bug:bug_\
head_embd\x22>A hea\
d scaled by the \
embedding width<\
/a> (practice mo\
de, I).</p>\x0a\
\x00\x00\x03\x8b\
<\
h3>Trap: \xe2\x80\x9cstab\
le softmax fixes\
 it\xe2\x80\x9d</h3>\x0a<p>S\
ubtracting the r\
ow maximum chang\
es how softmax i\
s <i>evaluated</\
i>, not what it \
<i>is</i>: softm\
ax(z \xe2\x88\x92 c) = so\
ftmax(z). At d<s\
ub>k</sub> = 512\
 without scaling\
 the largest log\
it reaches {stab\
le_max_logit}. N\
aive float16 ove\
rflows above 11.\
09, so it return\
s NaN for {stabl\
e_naive16_nan} o\
f the rows: no w\
eights at all. N\
aive float32 ove\
rflows only abov\
e 88.72 ({stable\
_naive32_nan_row\
s} NaN rows, dep\
ending on the se\
ed); where it st\
ays finite it ag\
rees with the st\
able version to \
{stable_f32_diff\
}.</p>\x0a<p>The st\
able program ret\
urns the true so\
ftmax, and it is\
 still saturated\
 with \xe2\x80\x96J\xe2\x80\x96 \xe2\x89\
\x88 0. Stability c\
ures overflow, n\
ot saturation. T\
he table's max p\
 and \xe2\x80\x96J\xe2\x80\x96 com\
e from the weigh\
ts each program \
returns, over th\
e rows that stay\
ed finite.</p>\x0a<\
p>Practice: spot\
 this trap in co\
de, <a href=\x22bug\
:bug_missing\x22>No\
 scale at all</a\
> (practice mode\
, I).</p>\x0a\
\x00\x00\x04?\
<\
h2>3 \xc2\xb7 What rea\
ches the queries\
</h2>\x0a<p>Learnin\
g needs to know \
how the weights \
change when a lo\
git changes: the\
 softmax Jacobia\
n <b>J = diag(p)\
 \xe2\x88\x92 p p\xe1\xb5\x80</b>,\
 entry (i, j) = \
p<sub>i</sub>(\xce\xb4\
<sub>ij</sub> \xe2\x88\
\x92 p<sub>j</sub>)\
. For one-hot p \
every entry is 0\
.</p>\x0a<!-- revea\
l -->\x0a<p>The gra\
dient reaching a\
 query, \xe2\x88\x82L/\xe2\x88\x82\
q = (scale) \xc2\xb7 K\
\xe1\xb5\x80 J \xe2\x88\x82L/\xe2\x88\x82p,\
 passes <i>throu\
gh</i> J. Withou\
t scaling the me\
dian \xe2\x80\x96\xe2\x88\x82L/\xe2\x88\x82\
q\xe2\x80\x96 is at first\
 <i>larger</i> t\
han with \xc3\xb7\xe2\x88\x9ad<\
sub>k</sub>, unt\
il d<sub>k</sub>\
 \xe2\x89\x88 {step3_cros\
sover}: the chai\
n rule brings th\
e scale in, \xe2\x88\x82z\
/\xe2\x88\x82q = c\xc2\xb7k wit\
h c = 1 raw and \
1/\xe2\x88\x9ad<sub>k</su\
b> scaled, while\
 \xe2\x88\x82L/\xe2\x88\x82z itsel\
f does not depen\
d on c. Then J c\
rushes it: {step\
3_ratio_1024} sm\
aller than with \
\xc3\xb7\xe2\x88\x9ad<sub>k</su\
b> at d<sub>k</s\
ub> = 1024, {ste\
p3_ratio_4096} a\
t 4096 (panels 3\
 and 4, vermilli\
on).</p>\x0a<p>The \
mean hides this:\
 a few near-tie \
rows still get l\
arge gradients (\
dotted line in p\
anel 4; at d<sub\
>k</sub> = 2048 \
the raw mean is \
{step3_mean_rati\
o} the \xc3\xb7\xe2\x88\x9ad<su\
b>k</sub> median\
). Learning rest\
s on rare rows w\
hile most querie\
s receive almost\
 nothing.</p>\x0a\
\x00\x00\x02D\
<\
h3>Trap: scaling\
 after the softm\
ax</h3>\x0a<p>Divid\
ing the <i>weigh\
ts</i> by \xe2\x88\x9ad<s\
ub>k</sub> does \
nothing to satur\
ation: the softm\
ax already saw t\
he wide logits (\
{after_softmax_s\
aturated} of row\
s saturated at d\
<sub>k</sub> = 2\
56). It breaks t\
he weights inste\
ad: each row now\
 sums to 1/\xe2\x88\x9ad<\
sub>k</sub> (0.0\
625 at d<sub>k</\
sub> = 256), not\
 1, and the grad\
ient through the\
 collapsed J shr\
inks by another \
1/\xe2\x88\x9ad<sub>k</su\
b>. Watch \xe2\x80\x9crow\
 sum\xe2\x80\x9d in panel\
 2.</p>\x0a<p>Pract\
ice: spot this t\
rap in code, <a \
href=\x22bug:bug_vi\
t_after\x22>A divis\
ion in the wrong\
 place</a> (prac\
tice mode, I).</\
p>\x0a\
\x00\x00\x04\x07\
<\
h3>Trap: \xe2\x80\x9csmal\
l heads train fi\
ne, so it doesn'\
t matter\xe2\x80\x9d</h3>\
\x0a<p>At small d<s\
ub>k</sub> raw l\
ogits are not to\
o wide: at d<sub\
>k</sub> = 16, \xcf\
\x83 = 4, where sof\
tmax is <i>most<\
/i> responsive (\
see the temperat\
ure follow-up). \
So the raw softm\
ax is the more r\
esponsive one th\
ere: from d<sub>\
k</sub> = 2 to 3\
2, \xc3\xb7\xe2\x88\x9ad<sub>k<\
/sub>'s median \xe2\
\x80\x96J\xe2\x80\x96<sub>F</su\
b> is only {smal\
l_heads_ratio_sm\
all} the raw one\
 (raw ahead by u\
p to {small_head\
s_raw_adv}). The\
 two cross near \
d<sub>k</sub> \xe2\x89\
\x88 {small_heads_c\
ross}; then \xc3\xb7\xe2\x88\
\x9ad<sub>k</sub> l\
eads by {small_h\
eads_ratio_512} \
at d<sub>k</sub>\
 = 512 and {smal\
l_heads_ratio_40\
96} at 4096.</p>\
\x0a<p>This is one \
layer at initial\
isation. In a de\
ep stack such fa\
ctors combine ac\
ross layers (thr\
ough the residua\
l stream, not as\
 a plain product\
), so a modest m\
is-scaling per l\
ayer can compoun\
d. The <i>Traini\
ng lab</i> stack\
s up to four lay\
ers: with 2\xe2\x80\x934 \
layers raw train\
s at none of the\
 9 SGD rates, wh\
ile \xc3\xb7\xe2\x88\x9ad<sub>k\
</sub> still doe\
s at most of the\
m: the best rebu\
ttal of \x22small h\
eads train fine\x22\
.</p>\x0a\
\x00\x00\x06[\
<\
h3>Follow-up: \xce\xbc\
P's 1/d<sub>k</s\
ub> and alignmen\
t</h3>\x0a<p>With i\
ndependent q and\
 k, 1/d<sub>k</s\
ub> over-shrinks\
: \xcf\x83 = 1/\xe2\x88\x9ad<su\
b>k</sub>. \xce\xbcP's\
 claim (Yang et \
al. 2022, Tensor\
 Programs V) is \
about training: \
once q and k are\
 correlated, q\xc2\xb7\
k grows like d<s\
ub>k</sub>, not \
\xe2\x88\x9ad<sub>k</sub>\
, and 1/d<sub>k<\
/sub> keeps the \
logits' <i>updat\
es</i> the same \
size at every wi\
dth, so tuned hy\
perparameters tr\
ansfer across wi\
dths.</p>\x0a<p>The\
 question is <b>\
does the sharpne\
ss change with w\
idth?</b> The al\
ignment \xcf\x81 mimic\
s trained, corre\
lated q and k. A\
t a fixed \xcf\x81 = 0\
.5 the aligned k\
ey's lead under \
\xc3\xb7\xe2\x88\x9ad<sub>k</su\
b> grows like \xcf\x81\
\xe2\x88\x9ad<sub>k</sub>\
: the median max\
 p goes from {mu\
p_sqrt_maxp_64} \
at d<sub>k</sub>\
 = 64 to {mup_sq\
rt_maxp_256} at \
256 and {mup_sqr\
t_maxp_1024} at \
1024, where \xe2\x80\x96J\
\xe2\x80\x96<sub>F</sub> \
is {mup_sqrt_jac\
_1024}: as colla\
psed as raw logi\
ts at initialisa\
tion. The same t\
raining signal g\
ives a wide head\
 a frozen softma\
x and a narrow o\
ne a responsive \
one. microsoft/m\
up's q\xc2\xb7k\xe1\xb5\x80\xc2\xb78/\
d (equal to 1/\xe2\x88\
\x9ad at d = 64; th\
e preset's \xcf\x84 = \
1/8) holds the l\
ead at 8\xcf\x81: max \
p {mup_8d_maxp} \
at every d<sub>k\
</sub> from 256 \
up. That is \xce\xbcP'\
s argument. Plai\
n \xc3\xb7d<sub>k</sub\
> holds it at \xcf\x81\
, max p {mup_dk_\
maxp}, barely ab\
ove 1/64.</p>\x0a<p\
>Which key wins \
does not decide \
between them: th\
e top key is the\
 aligned one in \
{mup_right} of r\
ows for every po\
sitive scale (a \
positive factor \
does not change \
the argmax). \xce\xbcP\
 also zero-initi\
alises the query\
, so attention s\
tarts uniform by\
 design. The pan\
els draw the pre\
set: \xc3\xb7d<sub>k</\
sub> at \xcf\x84 = 1/8\
 (their keys say\
 so), so their \xc3\
\xb7\xe2\x88\x9ad<sub>k</sub\
> and raw curves\
 are at \xcf\x84 = 1/8\
 too.</p>\x0a\
\x00\x00\x04\xfc\
<\
h2>4 \xc2\xb7 Divide b\
y \xe2\x88\x9ad<sub>k</su\
b></h2>\x0a<p>The f\
ix of Vaswani et\
 al. (2017, \xc2\xa73.\
2.1) is one line\
: z = q\xc2\xb7k / \xe2\x88\x9a\
d<sub>k</sub>. W\
hat does it do t\
o the spread of \
the logits, at e\
very head size?<\
/p>\x0a<!-- reveal \
-->\x0a<p>Dividing \
every logit by \xe2\
\x88\x9ad<sub>k</sub> \
divides its vari\
ance by d<sub>k<\
/sub>: under ste\
p 1's assumption\
s (independent u\
nit-variance ent\
ries) z = q\xc2\xb7k /\
 \xe2\x88\x9ad<sub>k</sub\
> has <b>varianc\
e 1 at every hea\
d size</b>.</p>\x0a\
<p>The blue curv\
es in panels 3 a\
nd 4 stay nearly\
 flat from d<sub\
>k</sub> = 4 to \
4096 (median \xe2\x80\x96\
J\xe2\x80\x96<sub>F</sub>\
 {step4_jac}, \xe2\x80\
\x96\xe2\x88\x82L/\xe2\x88\x82q\xe2\x80\x96 {s\
tep4_grad}) and \
no row saturates\
 ({step4_saturat\
ed}). So <i>at i\
nitialisation</i\
> one learning r\
ate sees the sam\
e gradient scale\
 at every head s\
ize; whether tha\
t survives train\
ing is \xce\xbcP's que\
stion.</p>\x0a<p>Sa\
turation should \
come later, on t\
he right key: wi\
th queries leani\
ng towards their\
 keys (alignment\
 \xcf\x81 = 0.5), \xc3\xb7\xe2\x88\
\x9ad<sub>k</sub> a\
t d<sub>k</sub> \
= 512 saturates \
{aligned_saturat\
ed} of rows, {al\
igned_right} on \
that key.</p>\x0a<p\
>Vaswani et al. \
(2017, \xc2\xa73.2.1) \
state the reason\
 as a suspicion:\
 large dot produ\
cts push softmax\
 into regions wi\
th extremely sma\
ll gradients. Pr\
ess <b>R</b> and\
 <b>S</b> to fli\
p raw and scaled\
. Why \xcf\x83 = 1 and\
 not 3: the <a h\
ref=\x22scenario:si\
gma_dial\x22>\xcf\x83 dia\
l</a>.</p>\x0a\
\x00\x00\x02\xe0\
<\
svg xmlns=\x22http:\
//www.w3.org/200\
0/svg\x22 width=\x2225\
6\x22 height=\x22256\x22 \
viewBox=\x220 0 256\
 256\x22>\x0a  <rect x\
=\x228\x22 y=\x228\x22 width\
=\x22240\x22 height=\x222\
40\x22 rx=\x2244\x22 fill\
=\x22#0072B2\x22/>\x0a  <\
!-- a wide (raw)\
 and a narrow (s\
caled) bell curv\
e -->\x0a  <path d=\
\x22M28 212 C 80 21\
2, 96 150, 128 1\
50 C 160 150, 17\
6 212, 228 212\x22 \
fill=\x22none\x22\x0a    \
    stroke=\x22#D55\
E00\x22 stroke-widt\
h=\x2212\x22 stroke-li\
necap=\x22round\x22/>\x0a\
  <path d=\x22M70 2\
12 C 106 212, 11\
0 110, 128 110 C\
 146 110, 150 21\
2, 186 212\x22 fill\
=\x22none\x22\x0a        \
stroke=\x22#FFFFFF\x22\
 stroke-width=\x221\
0\x22 stroke-lineca\
p=\x22round\x22 opacit\
y=\x220.9\x22/>\x0a  <!--\
 the square-root\
 sign -->\x0a  <pat\
h d=\x22M34 96 L 62\
 84 L 92 150 L 1\
32 40 L 226 40\x22 \
fill=\x22none\x22 stro\
ke=\x22#FFFFFF\x22\x0a   \
     stroke-widt\
h=\x2218\x22 stroke-li\
necap=\x22round\x22 st\
roke-linejoin=\x22r\
ound\x22/>\x0a</svg>\x0a\
"

qt_resource_name = b"\
\x00\x05\
\x00o\xa6S\
\x00i\
\x00c\x00o\x00n\x00s\
\x00\x06\
\x07,\xaa^\
\x00l\
\x00e\x00s\x00s\x00o\x00n\
\x00\x17\
\x0f\xbah\xfc\
\x00f\
\x00o\x00l\x00l\x00o\x00w\x00u\x00p\x00_\x00p\x00r\x00e\x00c\x00i\x00s\x00i\x00o\
\x00n\x00.\x00h\x00t\x00m\x00l\
\x00\x05\
\x00\x80\xe3~\
\x00z\
\x00h\x00_\x00C\x00N\
\x00\x17\
\x0f'L|\
\x00f\
\x00o\x00l\x00l\x00o\x00w\x00u\x00p\x00_\x00i\x00n\x00t\x00e\x00r\x00v\x00i\x00e\
\x00w\x00.\x00h\x00t\x00m\x00l\
\x00\x11\
\x08\xc26\xfc\
\x00t\
\x00r\x00a\x00p\x00_\x00s\x00e\x00q\x00_\x00l\x00e\x00n\x00.\x00h\x00t\x00m\x00l\
\
\x00\x1a\
\x0d\x16\xc6\xbc\
\x00f\
\x00o\x00l\x00l\x00o\x00w\x00u\x00p\x00_\x00l\x00o\x00n\x00g\x00_\x00c\x00o\x00n\
\x00t\x00e\x00x\x00t\x00.\x00h\x00t\x00m\x00l\
\x00\x19\
\x0f\x96\xcc\x1c\
\x00f\
\x00o\x00l\x00l\x00o\x00w\x00u\x00p\x00_\x00t\x00e\x00m\x00p\x00e\x00r\x00a\x00t\
\x00u\x00r\x00e\x00.\x00h\x00t\x00m\x00l\
\x00\x18\
\x0e2r<\
\x00f\
\x00o\x00l\x00l\x00o\x00w\x00u\x00p\x00_\x00s\x00i\x00g\x00m\x00a\x00_\x00d\x00i\
\x00a\x00l\x00.\x00h\x00t\x00m\x00l\
\x00\x02\
\x00\x00\x06\xa5\
\x00d\
\x00e\
\x00\x0a\
\x03[\xae\xbc\
\x00s\
\x00t\x00e\x00p\x002\x00.\x00h\x00t\x00m\x00l\
\x00\x15\
\x08\xdek|\
\x00f\
\x00o\x00l\x00l\x00o\x00w\x00u\x00p\x00_\x00q\x00k\x00_\x00n\x00o\x00r\x00m\x00.\
\x00h\x00t\x00m\x00l\
\x00\x0a\
\x03\x8b\xae\xbc\
\x00s\
\x00t\x00e\x00p\x005\x00.\x00h\x00t\x00m\x00l\
\x00\x0a\
\x03K\xae\xbc\
\x00s\
\x00t\x00e\x00p\x001\x00.\x00h\x00t\x00m\x00l\
\x00\x10\
\x07\x5c\x12|\
\x00t\
\x00r\x00a\x00p\x00_\x00d\x00m\x00o\x00d\x00e\x00l\x00.\x00h\x00t\x00m\x00l\
\x00\x18\
\x02%4\xbc\
\x00t\
\x00r\x00a\x00p\x00_\x00s\x00t\x00a\x00b\x00l\x00e\x00_\x00s\x00o\x00f\x00t\x00m\
\x00a\x00x\x00.\x00h\x00t\x00m\x00l\
\x00\x0a\
\x03k\xae\xbc\
\x00s\
\x00t\x00e\x00p\x003\x00.\x00h\x00t\x00m\x00l\
\x00\x17\
\x03\xd5\xbe|\
\x00t\
\x00r\x00a\x00p\x00_\x00a\x00f\x00t\x00e\x00r\x00_\x00s\x00o\x00f\x00t\x00m\x00a\
\x00x\x00.\x00h\x00t\x00m\x00l\
\x00\x15\
\x0c\xb5\x7f\x9c\
\x00t\
\x00r\x00a\x00p\x00_\x00s\x00m\x00a\x00l\x00l\x00_\x00h\x00e\x00a\x00d\x00s\x00.\
\x00h\x00t\x00m\x00l\
\x00\x11\
\x00Y\xb3|\
\x00f\
\x00o\x00l\x00l\x00o\x00w\x00u\x00p\x00_\x00m\x00u\x00p\x00.\x00h\x00t\x00m\x00l\
\
\x00\x0a\
\x03{\xae\xbc\
\x00s\
\x00t\x00e\x00p\x004\x00.\x00h\x00t\x00m\x00l\
\x00\x02\
\x00\x00\x06\xc3\
\x00e\
\x00s\
\x00\x0e\
\x0f\x91\x10\x07\
\x00s\
\x00q\x00r\x00t\x00d\x00k\x00-\x00g\x00u\x00i\x00.\x00s\x00v\x00g\
"

qt_resource_struct = b"\
\x00\x00\x00\x00\x00\x02\x00\x00\x00\x02\x00\x00\x00\x01\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x00\x00\x00\x02\x00\x00\x00\x01\x00\x00\x00J\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x00\x10\x00\x02\x00\x00\x00\x14\x00\x00\x00\x03\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x01j\x00\x02\x00\x00\x00\x11\x00\x00\x009\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x03\x0e\x00\x02\x00\x00\x00\x11\x00\x00\x00(\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x02\xcc\x00\x00\x00\x00\x00\x01\x00\x00F\xf3\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x00V\x00\x02\x00\x00\x00\x11\x00\x00\x00\x17\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x02\x18\x00\x00\x00\x00\x00\x01\x00\x008\xa7\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x01\xd8\x00\x00\x00\x00\x00\x01\x00\x001>\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x01t\x00\x00\x00\x00\x00\x01\x00\x00!\xd2\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x02N\x00\x00\x00\x00\x00\x01\x00\x00<6\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x02\xf4\x00\x00\x00\x00\x00\x01\x00\x00MR\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x01\xbe\x00\x00\x00\x00\x00\x01\x00\x00+\xf4\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x02h\x00\x00\x00\x00\x00\x01\x00\x00@y\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x01\xf2\x00\x00\x00\x00\x00\x01\x00\x005\x06\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x00\x9a\x00\x00\x00\x00\x00\x01\x00\x00\x11p\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x01\x8e\x00\x00\x00\x00\x00\x01\x00\x00'?\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x02\x9c\x00\x00\x00\x00\x00\x01\x00\x00B\xc1\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x00\xc2\x00\x00\x00\x00\x00\x01\x00\x00\x15\xd1\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x014\x00\x00\x00\x00\x00\x01\x00\x00\x1d\x0c\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x00f\x00\x00\x00\x00\x00\x01\x00\x00\x05\xdd\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x00\xfc\x00\x00\x00\x00\x00\x01\x00\x00\x19a\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x00\x22\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x02\xcc\x00\x00\x00\x00\x00\x01\x00\x01;\xa0\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x02\x18\x00\x00\x00\x00\x00\x01\x00\x01-{\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x01\xd8\x00\x00\x00\x00\x00\x01\x00\x01&\x12\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x01t\x00\x00\x00\x00\x00\x01\x00\x01\x16\xf4\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x02N\x00\x00\x00\x00\x00\x01\x00\x011\x0a\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x02\xf4\x00\x00\x00\x00\x00\x01\x00\x01A\xff\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x01\xbe\x00\x00\x00\x00\x00\x01\x00\x01 \xef\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x02h\x00\x00\x00\x00\x00\x01\x00\x015M\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x01\xf2\x00\x00\x00\x00\x00\x01\x00\x01)\xda\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x00\x9a\x00\x00\x00\x00\x00\x01\x00\x01\x06\x92\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x01\x8e\x00\x00\x00\x00\x00\x01\x00\x01\x1c:\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x02\x9c\x00\x00\x00\x00\x00\x01\x00\x017\x95\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x00\xc2\x00\x00\x00\x00\x00\x01\x00\x01\x0a\xf3\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x014\x00\x00\x00\x00\x00\x01\x00\x01\x12.\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x00f\x00\x00\x00\x00\x00\x01\x00\x00\xfbM\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x00\xfc\x00\x00\x00\x00\x00\x01\x00\x01\x0e\x83\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x00\x22\x00\x00\x00\x00\x00\x01\x00\x00\xf5p\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x02\xcc\x00\x00\x00\x00\x00\x01\x00\x00\x98\x82\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x02\x18\x00\x00\x00\x00\x00\x01\x00\x00\x8a]\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x01\xd8\x00\x00\x00\x00\x00\x01\x00\x00\x82\xf4\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x01t\x00\x00\x00\x00\x00\x01\x00\x00s\xd6\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x02N\x00\x00\x00\x00\x00\x01\x00\x00\x8d\xec\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x02\xf4\x00\x00\x00\x00\x00\x01\x00\x00\x9e\xe1\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x01\xbe\x00\x00\x00\x00\x00\x01\x00\x00}\xd1\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x02h\x00\x00\x00\x00\x00\x01\x00\x00\x92/\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x01\xf2\x00\x00\x00\x00\x00\x01\x00\x00\x86\xbc\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x00\x9a\x00\x00\x00\x00\x00\x01\x00\x00ct\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x01\x8e\x00\x00\x00\x00\x00\x01\x00\x00y\x1c\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x02\x9c\x00\x00\x00\x00\x00\x01\x00\x00\x94w\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x00\xc2\x00\x00\x00\x00\x00\x01\x00\x00g\xd5\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x014\x00\x00\x00\x00\x00\x01\x00\x00o\x10\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x00f\x00\x00\x00\x00\x00\x01\x00\x00X/\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x00\xfc\x00\x00\x00\x00\x00\x01\x00\x00ke\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x00\x22\x00\x00\x00\x00\x00\x01\x00\x00RR\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x02\xcc\x00\x00\x00\x00\x00\x01\x00\x00\xea\x11\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x02\x18\x00\x00\x00\x00\x00\x01\x00\x00\xdb\xec\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x01\xd8\x00\x00\x00\x00\x00\x01\x00\x00\xd4\x83\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x01t\x00\x00\x00\x00\x00\x01\x00\x00\xc5e\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x02N\x00\x00\x00\x00\x00\x01\x00\x00\xdf{\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x02\xf4\x00\x00\x00\x00\x00\x01\x00\x00\xf0p\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x01\xbe\x00\x00\x00\x00\x00\x01\x00\x00\xcf`\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x02h\x00\x00\x00\x00\x00\x01\x00\x00\xe3\xbe\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x01\xf2\x00\x00\x00\x00\x00\x01\x00\x00\xd8K\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x00\x9a\x00\x00\x00\x00\x00\x01\x00\x00\xb5\x03\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x01\x8e\x00\x00\x00\x00\x00\x01\x00\x00\xca\xab\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x02\x9c\x00\x00\x00\x00\x00\x01\x00\x00\xe6\x06\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x00\xc2\x00\x00\x00\x00\x00\x01\x00\x00\xb9d\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x014\x00\x00\x00\x00\x00\x01\x00\x00\xc0\x9f\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x00f\x00\x00\x00\x00\x00\x01\x00\x00\xa9\xbe\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x00\xfc\x00\x00\x00\x00\x00\x01\x00\x00\xbc\xf4\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x00\x22\x00\x00\x00\x00\x00\x01\x00\x00\xa3\xe1\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x03\x18\x00\x00\x00\x00\x00\x01\x00\x01F\xff\
\x00\x00\x00\x00\x00\x00\x03\xe8\
"

def qInitResources():
    QtCore.qRegisterResourceData(0x03, qt_resource_struct, qt_resource_name, qt_resource_data)

def qCleanupResources():
    QtCore.qUnregisterResourceData(0x03, qt_resource_struct, qt_resource_name, qt_resource_data)

qInitResources()
