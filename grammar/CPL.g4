// SPDX-License-Identifier: Apache-2.0
// CPL — the capops policy language.
//
// The grammar has no actions: engine/syntax walks the parse tree with a
// visitor and builds the project's own AST. Expressions follow CEL's syntax
// and precedence; CPL adds declarations (package, enum, param, rule), rule
// clauses, and literals for dates, durations and quantities with units.
grammar CPL;

// ---------------------------------------------------------------- declarations

module
    : packageDecl? importDecl* decl* EOF
    ;

importDecl
    : IMPORT qualifiedName
    ;

packageDecl
    : PACKAGE qualifiedName
    ;

// Entry point for the `{expr}` holes of message templates.
exprOnly
    : expr EOF
    ;

qualifiedName
    : IDENT ('.' IDENT)*
    ;

decl
    : annotation* RULE name=IDENT '{' clause* emit+ '}'               # RuleDecl
    | PARAM name=IDENT ':' typeRef '=' expr                          # ParamDecl
    | ENUM name=IDENT '{' enumValue (',' enumValue)* ','? '}'        # EnumDecl
    | kind=(RECORD | DOCUMENT) name=IDENT '{' fieldDecl* '}'         # RecordDecl
    | FN name=IDENT '(' (fnParam (',' fnParam)*)? ')' ':' typeRef '=' expr   # FnDecl
    | TEST name=STRING '{' testFacts* testExpect* '}'                # TestDecl
    ;

// A policy test (in `*_test.cpl` files): fact sources and `param` settings
// first, then what must happen. The words `facts`, `inventory`, `yaml`, `expect`, `expect_none`,
// `count` and `message` are names, not keywords, so rules may still use them.
testFacts
    : kind=(IDENT | PARAM) value=STRING
    ;

testExpect
    : kind=IDENT ruleRef (AT at=STRING)? testOption*
    ;

// `CAP-ALC-001` is a name followed by `-` parts.
ruleRef
    : IDENT ('-' (IDENT | INT))*
    ;

testOption
    : name=IDENT (INT | STRING)
    ;

fnParam
    : name=IDENT ':' typeRef
    ;

// `name: T`, `name?: T` (may be absent) or `name: T = literal` (default);
// a number field may bound its values: `name: double in 0.0..1.0`.
fieldDecl
    : name=fieldName optional='?'? ':' typeRef fieldRange? ('=' expr)? ','?
    ;

// `in low..high`, both included; a side left out is open (`in 1..`,
// `in ..100`). The checker says which bounds fit the field's type.
fieldRange
    : IN low=rangeBound? '..' high=rangeBound?
    ;

rangeBound
    : neg='-'? literal
    ;

enumValue
    : IDENT
    ;

annotation
    : '@' name=IDENT ('(' annotationArg (',' annotationArg)* ')')?
    ;

annotationArg
    : STRING  # StringArg
    | IDENT   # IdentArg
    ;

typeRef
    : REF IDENT                                 # RefType
    | IDENT ('<' typeRef (',' typeRef)* '>')?  # NamedType
    ;

clause
    : FOR var=IDENT IN expr        # ForClause
    | LET var=IDENT '=' expr       # LetClause
    | WHERE expr                   # WhereClause
    ;

emit
    : kind=(DENY | WARN) (WHEN cond=expr)? (AT at=expr)? message=STRING
      (BECAUSE because=STRING)? (FIX fix=STRING)?
    ;

// ---------------------------------------------------------------- expressions

// `let x = v; body` names a value inside an expression (a macro's body, a
// function's): `x` is bound in `body` only.
expr
    : LET var=IDENT '=' value=expr ';' body=expr
    | cond=conditionalOr ('?' then=conditionalOr ':' otherwise=expr)?
    ;

conditionalOr
    : conditionalAnd (ops+='||' conditionalAnd)*
    ;

conditionalAnd
    : relation (ops+='&&' relation)*
    ;

relation
    : calc                                                        # CalcRelation
    | relation op=('<' | '<=' | '>=' | '>' | '==' | '!=' | IN) relation # BinaryRelation
    ;

calc
    : unary                                      # UnaryCalc
    | calc op=('*' | '/' | '%') calc             # MulCalc
    | calc op=('+' | '-') calc                   # AddCalc
    ;

unary
    : member              # MemberUnary
    | (ops+='!')+ member  # NotUnary
    | (ops+='-')+ member  # NegUnary
    ;

// `a.?b` is CEL's optional selection: an optional value, none when `b` is absent.
member
    : primary                                              # PrimaryMember
    | member '.' field=fieldName                           # SelectMember
    | member '.' '?' field=fieldName                       # OptSelectMember
    | member '.' method=fieldName '(' args=exprList? ')'   # MethodMember
    | member '[' index=expr ']'                            # IndexMember
    ;

primary
    : fn=IDENT '(' args=exprList? ')'        # CallPrimary
    | IDENT                                  # IdentPrimary
    | '(' expr ')'                           # ParenPrimary
    | '[' listElements? ','? ']'             # ListPrimary
    | '{' mapEntries? ','? '}'               # MapPrimary
    | '{' exprList ','? '}'                  # SetPrimary
    | literal                                # LiteralPrimary
    ;

exprList
    : expr (',' expr)*
    ;

// `x if c` is an element included only when `c` is true.
listElements
    : listElement (',' listElement)*
    ;

listElement
    : value=expr (IF cond=expr)?
    ;

mapEntries
    : expr ':' expr (',' expr ':' expr)*
    ;

// Field names may be words that are keywords elsewhere (`plan.window`, `x.at`).
fieldName
    : IDENT | PACKAGE | IMPORT | RULE | PARAM | ENUM | RECORD | DOCUMENT | REF | FN
    | FOR | IN | LET | WHERE | DENY | WARN | WHEN | AT | BECAUSE | FIX | TEST | IF
    ;

literal
    : NULL_LIT   # NullLit
    | TRUE_LIT   # TrueLit
    | FALSE_LIT  # FalseLit
    | INT        # IntLit
    | DOUBLE     # DoubleLit
    | STRING     # StringLit
    | DATE       # DateLit
    | DURATION   # DurationLit
    | QUANTITY   # QuantityLit
    ;

// ---------------------------------------------------------------- tokens

PACKAGE : 'package';
IMPORT  : 'import';
RECORD  : 'record';
DOCUMENT: 'document';
REF     : 'ref';
FN      : 'fn';
TEST    : 'test';
RULE    : 'rule';
PARAM   : 'param';
ENUM    : 'enum';
FOR     : 'for';
IN      : 'in';
LET     : 'let';
WHERE   : 'where';
DENY    : 'deny';
WARN    : 'warn';
WHEN    : 'when';
AT      : 'at';
BECAUSE : 'because';
FIX     : 'fix';
IF      : 'if';

NULL_LIT  : 'null';
TRUE_LIT  : 'true';
FALSE_LIT : 'false';

// Longest match makes `2027-04-12` a date, `5d` a duration and `80GiB` a
// quantity rather than an integer followed by something else. A date may
// carry a time; one without its UTC offset is a token too, so that the
// parser can say what it lacks.
DATE     : DIGIT DIGIT DIGIT DIGIT '-' DIGIT DIGIT '-' DIGIT DIGIT
           ('T' DIGIT DIGIT ':' DIGIT DIGIT (':' DIGIT DIGIT)? ('Z' | ('+' | '-') DIGIT DIGIT ':' DIGIT DIGIT)?)?;
DURATION : (DIGIT+ ('w' | 'd' | 'h' | 'm' | 's'))+;
QUANTITY : DIGIT+ ('.' DIGIT+)? UNIT_PREFIX? 'B' ('/s')?;
DOUBLE   : DIGIT+ '.' DIGIT+ EXPONENT? | DIGIT+ EXPONENT;
INT      : DIGIT+ | '0x' HEX+;

STRING
    : '"' (ESCAPE | ~["\\\r\n])* '"'
    | '\'' (ESCAPE | ~['\\\r\n])* '\''
    ;

IDENT : [a-zA-Z_] [a-zA-Z0-9_]*;

// Doc comments go to their own channel; the AST builder picks up those that
// stand right before a declaration.
DOC_COMMENT  : '///' ~[\r\n]* -> channel(2);
LINE_COMMENT : '//' ~[\r\n]* -> channel(HIDDEN);
WS           : [ \t\r\n\f]+ -> channel(HIDDEN);

// Anything else is one bad character, so the lexer never stops early and the
// parser reports it at its place.
ERROR_CHAR : .;

fragment DIGIT       : [0-9];
fragment HEX         : [0-9a-fA-F];
fragment EXPONENT    : [eE] [+-]? DIGIT+;
fragment ESCAPE      : '\\' (["'\\bfnrt{}] | 'u' HEX HEX HEX HEX);
fragment UNIT_PREFIX : [kKMGTPE] 'i'?;
