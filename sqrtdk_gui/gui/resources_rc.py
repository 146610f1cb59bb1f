# Resource object code (Python 3)
# Created by: object code
# Created by: The Resource Compiler for Qt version 6.11.3
# WARNING! All changes made in this file will be lost!

from PySide6 import QtCore

qt_resource_data = b"\
\x00\x00\x02\xf9\
<\
h3>Follow-up: bf\
loat16 and float\
8</h3>\x0a<p>bfloat\
16 has float32's\
 range but 8 sig\
nificand bits: n\
ear |z| = 64 its\
 values are 0.5 \
apart, so roundi\
ng a logit moves\
 its weight\x0aby u\
p to e<sup>0.25<\
/sup> \xe2\x89\x88 28 %. \
float8 E4M3 stop\
s at 448 (beyond\
: NaN), E5M2 at \
57 344 (beyond: \
inf) (Micikevici\
us et al. 2022).\
\x0aTypes from <i>m\
l-dtypes</i>; th\
e logits are rou\
nded, the softma\
x runs in float3\
2, as attention \
kernels keep it.\
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
\x00\x00\x01D\
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
. Changing n lea\
ves \xcf\x83 unchanged\
,\x0aso a factor li\
ke 1/\xe2\x88\x9an is too\
 weak for short \
contexts and too\
 strong for long\
 ones \xe2\x80\x94 at eve\
ry n it is the w\
rong quantity.</\
p>\x0a\
\x00\x00\x02\xb4\
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
gth of 64, scala\
ble-softmax's s\xc2\
\xb7log n with s = \
1/ln 64\x0a(Nakanis\
hi 2025; Chiang \
&amp; Cholak 202\
2 use log n; YaR\
N 0.1\xc2\xb7ln s + 1)\
. \xcf\x83 grows to 2.\
83 at 131 072 an\
d max p holds.</\
p>\x0a\
\x00\x00\x01$\
<\
h3>Follow-up: te\
mperature</h3>\x0a<\
p>Dividing by \xe2\x88\
\x9ad<sub>k</sub> i\
s a softmax temp\
erature of \xcf\x84 = \
\xe2\x88\x9ad<sub>k</sub>\
. A fixed temper\
ature fits one h\
ead size only:\x0a\xcf\
\x84 = 8 gives \xcf\x83 =\
 1 at d<sub>k</s\
ub> = 64, but 0.\
25 at d<sub>k</s\
ub> = 4 (too fla\
t) and 4 at d<su\
b>k</sub> = 1024\
 (saturating).</\
p>\x0a\
\x00\x00\x03\x8d\
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
th n, like \xe2\x88\x9a(2\
 ln n).</p>\x0a\
\x00\x00\x03#\
<\
h2>2 \xc2\xb7 Softmax \
saturates</h2>\x0a<\
p>Softmax turns \
logits into weig\
hts p<sub>j</sub\
> = e<sup>z<sub>\
j</sub></sup> / \
\xce\xa3 e<sup>z<sub>i\
</sub></sup>. On\
ly differences m\
atter:\x0atwo logit\
s that differ by\
 \xce\x94 get weights \
in the ratio e<s\
up>\xce\x94</sup>. A g\
ap of 7 is alrea\
dy a factor of 1\
100.</p>\x0a<p>When\
 \xcf\x83 = 22.6, the \
gap between a qu\
ery's largest an\
d second-largest\
 logit is typica\
lly several unit\
s,\x0aso the expone\
ntial hands almo\
st all the weigh\
t to one key: th\
e <b>largest wei\
ght \xe2\x86\x92 1</b> an\
d the\x0a<b>entropy\
 \xe2\x86\x92 0</b> (a un\
iform softmax ov\
er n keys would \
have entropy log\
 n).</p>\x0a<p>Pane\
l 2 shows one qu\
ery's weights, s\
orted. At d<sub>\
k</sub> = 512 wi\
thout scaling, t\
he median query \
puts 0.998 of it\
s\x0aweight on a si\
ngle key, and mo\
re than half of \
all queries are \
<i>saturated</i>\
 (largest weight\
 above 0.99).</p\
>\x0a\
\x00\x00\x01O\
<\
h3>Follow-up: QK\
-normalisation</\
h3>\x0a<p>Normalise\
 q and k to unit\
 length and mult\
iply by a gain g\
: every logit is\
 g\xc2\xb7cos \xce\xb8, so i\
t lies in [\xe2\x88\x92g,\
 g] for every d<\
sub>k</sub>\x0aand \
saturation is bo\
unded by design \
(ViT-22B uses it\
 against runaway\
 logits). Random\
 vectors have co\
s \xce\xb8 \xe2\x89\x88 1/\xe2\x88\x9ad<\
sub>k</sub>, so \
g is learned in \
practice.</p>\x0a\
\x00\x00\x04Y\
<\
h2>5 \xc2\xb7 Traps an\
d follow-ups</h2\
>\x0a<p>The chain i\
s: d<sub>k</sub>\
 terms \xe2\x86\x92 varia\
nce d<sub>k</sub\
> \xe2\x86\x92 wide logit\
s \xe2\x86\x92 saturated \
softmax \xe2\x86\x92 J \xe2\x89\
\x88 0 \xe2\x86\x92 no gradi\
ent.\x0aA fix must \
act on the <i>sp\
read of the logi\
ts</i>, and it m\
ust depend on d<\
sub>k</sub> \xe2\x80\x94 \
the number of te\
rms in each dot \
product.</p>\x0a<p>\
Each trap below \
is a plausible-l\
ooking fix that \
breaks one link \
of that chain. E\
ach follow-up is\
 a real design t\
hat\x0akeeps the ch\
ain intact in an\
other way. Pick \
one: its paramet\
ers are set and \
the panels show \
the effect live.\
</p>\x0a<p><b>Does \
it train worse?<\
/b> The <i>Train\
ing lab</i> tab \
trains a small a\
ttention layer o\
n recall, raw ag\
ainst \xc3\xb7\xe2\x88\x9ad<sub\
>k</sub>,\x0afrom t\
he same weights.\
 Measured: with \
SGD (lr 0.5) the\
y train alike up\
 to d<sub>k</sub\
> = 64, raw need\
s 1.4\xc3\x97 the step\
s at 256 and 2.2\
\xc3\x97 at 1024;\x0aat l\
r 5, the fastest\
 rate for \xc3\xb7\xe2\x88\x9ad\
<sub>k</sub>, ra\
w stalls at chan\
ce with ~90 % of\
 rows stuck on a\
 wrong key alrea\
dy at d<sub>k</s\
ub> = 64.\x0aAdam d\
oes not hide it \
(2\xc3\x97 slower at 6\
4, 3.6\xc3\x97 at 1024\
). With cross-en\
tropy put direct\
ly on the logits\
 the penalty van\
ishes: J is off \
that gradient pa\
th.</p>\x0a\
\x00\x00\x03b\
<\
h2>1 \xc2\xb7 Variance\
 grows with d<su\
b>k</sub></h2>\x0a<\
p>An attention l\
ogit is a dot pr\
oduct: z = q\xc2\xb7k \
= q<sub>1</sub>k\
<sub>1</sub> + q\
<sub>2</sub>k<su\
b>2</sub> + \xe2\x80\xa6 \
+ q<sub>d<sub>k<\
/sub></sub>k<sub\
>d<sub>k</sub></\
sub>.\x0aWith indep\
endent entries o\
f mean 0 and var\
iance 1, each pr\
oduct q<sub>i</s\
ub>k<sub>i</sub>\
 has mean 0 and \
variance 1.</p>\x0a\
<p>Variances of \
independent term\
s add. A sum of \
d<sub>k</sub> of\
 them has varian\
ce d<sub>k</sub>\
, so the logits \
spread with\x0astan\
dard deviation <\
b>\xcf\x83 = \xe2\x88\x9ad<sub>\
k</sub></b>: 8 a\
t d<sub>k</sub> \
= 64, 22.6 at d<\
sub>k</sub> = 51\
2, 64 at d<sub>k\
</sub> = 4096.</\
p>\x0a<p>Watch pane\
l 1 while d<sub>\
k</sub> grows fr\
om 1 to 512: the\
 histogram and t\
he dashed theory\
 curve N(0, d<su\
b>k</sub>) widen\
 together,\x0aand t\
he dashed \xc2\xb1\xcf\x83 m\
arkers follow \xe2\x88\
\x9ad<sub>k</sub>. \
Nothing about th\
e vectors got \x22b\
igger\x22 per entry\
: there are just\
 more terms.</p>\
\x0a\
\x00\x00\x01j\
<\
h3>Trap: dividin\
g by \xe2\x88\x9ad<sub>mo\
del</sub> instea\
d of \xe2\x88\x9ad<sub>k<\
/sub></h3>\x0a<p>Ea\
ch head's logit \
is a sum over it\
s own d<sub>k</s\
ub> entries, not\
 over d<sub>mode\
l</sub> = h\xc2\xb7d<s\
ub>k</sub>. Divi\
ding by \xe2\x88\x9a(h\xc2\xb7d\
<sub>k</sub>)\x0ash\
rinks \xcf\x83 to 1/\xe2\x88\
\x9ah: with 8 heads\
 \xcf\x83 \xe2\x89\x88 0.35, th\
e weights flatte\
n towards unifor\
m (entropy \xe2\x86\x92 l\
og n) and attent\
ion stops select\
ing.</p>\x0a\
\x00\x00\x01O\
<\
h3>Trap: \xe2\x80\x9cstab\
le softmax fixes\
 it\xe2\x80\x9d</h3>\x0a<p>S\
ubtracting the r\
ow maximum befor\
e exp changes ho\
w softmax is <i>\
evaluated</i>, n\
ot what it <i>is\
</i>: softmax(z \
\xe2\x88\x92 c) = softmax\
(z).\x0aIt stops ex\
p from overflowi\
ng (float16 over\
flows above 11.0\
9), but the weig\
hts, the largest\
 weight and \xe2\x80\x96J\
\xe2\x80\x96 are identica\
l \xe2\x80\x94 saturation\
 remains.</p>\x0a\
\x00\x00\x04\x17\
<\
h2>3 \xc2\xb7 The Jaco\
bian collapses</\
h2>\x0a<p>Learning \
needs to know ho\
w the output cha\
nges when a logi\
t changes. For s\
oftmax that deri\
vative is the\x0aJa\
cobian <b>J = di\
ag(p) \xe2\x88\x92 p p\xe1\xb5\x80\
</b>: entry (i, \
j) is p<sub>i</s\
ub>(\xce\xb4<sub>ij</s\
ub> \xe2\x88\x92 p<sub>j<\
/sub>). If p is \
one-hot, every e\
ntry is 0:\x0amovin\
g any logit a li\
ttle changes not\
hing.</p>\x0a<p>The\
 gradient that r\
eaches a query i\
s \xe2\x88\x82L/\xe2\x88\x82q = (s\
cale) \xc2\xb7 K\xe1\xb5\x80 J \
\xe2\x88\x82L/\xe2\x88\x82p, so it\
 passes <i>throu\
gh</i> J. When m\
ost rows saturat\
e,\x0athe median \xe2\x80\
\x96J\xe2\x80\x96<sub>F</sub\
> and the median\
 \xe2\x80\x96\xe2\x88\x82L/\xe2\x88\x82q\xe2\x80\x96\
 fall by orders \
of magnitude (pa\
nels 3 and 4, ve\
rmillion).\x0aWitho\
ut scaling the m\
edian gradient i\
s first <i>large\
r</i> than with \
\xc3\xb7\xe2\x88\x9ad<sub>k</su\
b> (the logits a\
re larger), then\
, from d<sub>k</\
sub> \xe2\x89\x88 512 on,\
\x0aJ crushes it: 3\
5\xc3\x97 smaller than\
 with \xc3\xb7\xe2\x88\x9ad<sub\
>k</sub> at d<su\
b>k</sub> = 1024\
, almost 500 000\
\xc3\x97 at 4096.</p>\x0a\
<p>The mean hide\
s this: a few ro\
ws with near-tie\
s still get larg\
e gradients (das\
hed line in pane\
l 4).\x0aLearning t\
hen rests on rar\
e, noisy rows wh\
ile most queries\
 and keys receiv\
e almost nothing\
.</p>\x0a\
\x00\x00\x01/\
<\
h3>Trap: scaling\
 after the softm\
ax</h3>\x0a<p>Divid\
ing the weights \
by \xe2\x88\x9ad<sub>k</s\
ub> does nothing\
 to saturation \xe2\
\x80\x94 the softmax a\
lready saw the w\
ide logits \xe2\x80\x94 a\
nd it breaks\x0athe\
 weights: each r\
ow now sums to 1\
/\xe2\x88\x9ad<sub>k</sub\
> (0.0625 at d<s\
ub>k</sub> = 256\
), not 1. Watch \
\xe2\x80\x9crow sum\xe2\x80\x9d in\
 panel 2.</p>\x0a\
\x00\x00\x01y\
<\
h3>Trap: \xe2\x80\x9csmal\
l heads train fi\
ne, so it doesn'\
t matter\xe2\x80\x9d</h3>\
\x0a<p>At d<sub>k</\
sub> \xe2\x89\xa4 8, \xcf\x83 i\
s at most 2.8: r\
aw and \xc3\xb7\xe2\x88\x9ad<su\
b>k</sub> softma\
xes are both res\
ponsive and thei\
r Jacobians are \
alike.\x0aThe gap o\
pens as d<sub>k<\
/sub> grows: med\
ian \xe2\x80\x96J\xe2\x80\x96<sub>\
F</sub> with \xc3\xb7\xe2\
\x88\x9ad<sub>k</sub> \
is about 1\xc3\x97 the\
 raw one up to d\
<sub>k</sub> = 6\
4, 50\xc3\x97 at 512 a\
nd 10\xe2\x81\xb7\xc3\x97 at 40\
96.</p>\x0a\
\x00\x00\x01\x83\
<\
h3>Follow-up: \xce\xbc\
P's 1/d<sub>k</s\
ub> and alignmen\
t</h3>\x0a<p>Traini\
ng aligns each q\
uery with the ke\
y it should find\
 (alignment \xcf\x81).\
 That key's logi\
t then has a par\
t \xcf\x81\xc2\xb7d<sub>k</s\
ub> that grows l\
ike\x0ad<sub>k</sub\
>, not \xe2\x88\x9ad<sub>\
k</sub>: \xc3\xb7\xe2\x88\x9ad<\
sub>k</sub> leav\
es a gap \xcf\x81\xe2\x88\x9ad<\
sub>k</sub> that\
 keeps widening,\
 \xc3\xb7d<sub>k</sub>\
 (\xce\xbcP, Tensor Pr\
ograms V) holds \
it at \xcf\x81 for eve\
ry head size.</p\
>\x0a\
\x00\x00\x03\x04\
<\
h2>4 \xc2\xb7 Divide b\
y \xe2\x88\x9ad<sub>k</su\
b></h2>\x0a<p>Divid\
ing every logit \
by \xe2\x88\x9ad<sub>k</s\
ub> divides its \
variance by d<su\
b>k</sub>: z = q\
\xc2\xb7k / \xe2\x88\x9ad<sub>k\
</sub> has <b>va\
riance 1 for eve\
ry head size</b>\
.\x0aThe softmax th\
en sees the same\
 spread at d<sub\
>k</sub> = 4 and\
 at d<sub>k</sub\
> = 4096.</p>\x0a<p\
>Same spread, sa\
me weights stati\
stics, same Jaco\
bian, same gradi\
ent scale: every\
 blue curve in p\
anels 3 and 4 is\
 flat,\x0athe satur\
ated share stays\
 at 0, and one l\
earning rate sui\
ts all head size\
s.</p>\x0a<p>This i\
s the whole argu\
ment of \xe2\x80\x9cAtten\
tion is all you \
need\xe2\x80\x9d (\xc2\xa73.2.1\
): dot products \
grow like \xe2\x88\x9ad<s\
ub>k</sub>, larg\
e values push so\
ftmax\x0ainto regio\
ns with extremel\
y small gradient\
s, so scale by 1\
/\xe2\x88\x9ad<sub>k</sub\
>. Press <b>R</b\
> and <b>S</b> t\
o flip between r\
aw and scaled.</\
p>\x0a\
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
\x00\x0e\
\x0f\x91\x10\x07\
\x00s\
\x00q\x00r\x00t\x00d\x00k\x00-\x00g\x00u\x00i\x00.\x00s\x00v\x00g\
"

qt_resource_struct = b"\
\x00\x00\x00\x00\x00\x02\x00\x00\x00\x02\x00\x00\x00\x01\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x00\x00\x00\x02\x00\x00\x00\x01\x00\x00\x00\x13\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x00\x10\x00\x02\x00\x00\x00\x10\x00\x00\x00\x03\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x02~\x00\x00\x00\x00\x00\x01\x00\x00!\x7f\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x01\xca\x00\x00\x00\x00\x00\x01\x00\x00\x19a\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x01\x8a\x00\x00\x00\x00\x00\x01\x00\x00\x14\x8d\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x01&\x00\x00\x00\x00\x00\x01\x00\x00\x0b\xb6\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x02\x00\x00\x00\x00\x00\x00\x01\x00\x00\x1a\xb4\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x02\xa6\x00\x00\x00\x00\x00\x01\x00\x00#\x06\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x01p\x00\x00\x00\x00\x00\x01\x00\x00\x100\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x02\x1a\x00\x00\x00\x00\x00\x01\x00\x00\x1e\xcf\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x01\xa4\x00\x00\x00\x00\x00\x01\x00\x00\x17\xf3\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x00V\x00\x00\x00\x00\x00\x01\x00\x00\x02\xfd\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x01@\x00\x00\x00\x00\x00\x01\x00\x00\x0e\xdd\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x02N\x00\x00\x00\x00\x00\x01\x00\x00 \x02\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x00~\x00\x00\x00\x00\x00\x01\x00\x00\x04E\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x00\xf0\x00\x00\x00\x00\x00\x01\x00\x00\x08%\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x00\xb8\x00\x00\x00\x00\x00\x01\x00\x00\x06\xfd\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x00\x22\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x02\xc0\x00\x00\x00\x00\x00\x01\x00\x00&\x0e\
\x00\x00\x00\x00\x00\x00\x03\xe8\
"

def qInitResources():
    QtCore.qRegisterResourceData(0x03, qt_resource_struct, qt_resource_name, qt_resource_data)

def qCleanupResources():
    QtCore.qUnregisterResourceData(0x03, qt_resource_struct, qt_resource_name, qt_resource_data)

qInitResources()
