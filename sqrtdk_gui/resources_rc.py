# Resource object code (Python 3)
# Created by: object code
# Created by: The Resource Compiler for Qt version 6.11.3
# WARNING! All changes made in this file will be lost!

from PySide6 import QtCore

qt_resource_data = b"\
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
\x00\x0e\
\x0f\x91\x10\x07\
\x00s\
\x00q\x00r\x00t\x00d\x00k\x00-\x00g\x00u\x00i\x00.\x00s\x00v\x00g\
"

qt_resource_struct = b"\
\x00\x00\x00\x00\x00\x02\x00\x00\x00\x01\x00\x00\x00\x01\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x00\x00\x00\x02\x00\x00\x00\x01\x00\x00\x00\x02\
\x00\x00\x00\x00\x00\x00\x03\xe8\
\x00\x00\x00\x10\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\
\x00\x00\x00\x00\x00\x00\x03\xe8\
"

def qInitResources():
    QtCore.qRegisterResourceData(0x03, qt_resource_struct, qt_resource_name, qt_resource_data)

def qCleanupResources():
    QtCore.qUnregisterResourceData(0x03, qt_resource_struct, qt_resource_name, qt_resource_data)

qInitResources()
