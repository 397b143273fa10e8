# SPDX-License-Identifier: Apache-2.0
# fish completion for capops-lint: subcommands, options, the values of
# --format, --fail-on and --color, and file names elsewhere.
# Installed as share/fish/vendor_completions.d/capops-lint.fish.

function __capops_lint_in -d "true in the given subcommand; `lint` for none"
    set -l tokens (commandline -opc)
    set -l seen lint
    for t in $tokens[2..-1]
        if contains -- $t explain eval check-rules test rules params doc fmt why-not schema init help
            set seen $t
            break
        end
    end
    contains -- $seen $argv
end

# Subcommands, where none is given yet.
complete -c capops-lint -n "__capops_lint_in lint" -a explain -d "a rule's documentation, parameters and source"
complete -c capops-lint -n "__capops_lint_in lint" -a eval -d "evaluate one CPL expression against the facts"
complete -c capops-lint -n "__capops_lint_in lint" -a check-rules -d "compile and type-check policies"
complete -c capops-lint -n "__capops_lint_in lint" -a test -d "run the policy tests"
complete -c capops-lint -n "__capops_lint_in lint" -a rules -d "list rules, the ruleset digest, or --diff"
complete -c capops-lint -n "__capops_lint_in lint" -a params -d "list params, their values and where each was set"
complete -c capops-lint -n "__capops_lint_in lint" -a doc -d "write the rule catalogue"
complete -c capops-lint -n "__capops_lint_in lint" -a fmt -d "rewrite CPL files in one layout"
complete -c capops-lint -n "__capops_lint_in lint" -a why-not -d "why a rule did or did not fire"
complete -c capops-lint -n "__capops_lint_in lint" -a schema -d "the fact schema as a JSON Schema"
complete -c capops-lint -n "__capops_lint_in lint" -a init -d "write a plan and inventory to start from"
complete -c capops-lint -n "__capops_lint_in lint" -a help -d "the usage of capops-lint or of a subcommand"
complete -c capops-lint -n "__capops_lint_in help" -f -a "explain eval check-rules test rules params doc fmt why-not schema init help"

complete -c capops-lint -s h -l help -d "print help"

# The lint itself.
set -l lint "__capops_lint_in lint"
complete -c capops-lint -n $lint -l policy -r -F -d "policy file or directory"
complete -c capops-lint -n $lint -l inventory -r -F -d "inventory file"
complete -c capops-lint -n $lint -s o -l output -r -F -d "write the report to FILE"
complete -c capops-lint -n $lint -l config -r -F -d "config file"
complete -c capops-lint -n $lint -l no-config -d "do not look for .capops.yaml"
complete -c capops-lint -n $lint -l waivers -r -F -d "waivers file"
complete -c capops-lint -n $lint -l baseline -r -F -d "report only findings not in this baseline"
complete -c capops-lint -n $lint -l write-baseline -r -F -d "record the findings, report only new ones"
complete -c capops-lint -n $lint -l explain -d "each violation's evidence and clause trace"
complete -c capops-lint -n $lint -l cache -d "reuse findings of unchanged plans (--cache=DIR)"
complete -c capops-lint -n $lint -l profile -d "print what each rule cost (--profile=json)"
complete -c capops-lint -n $lint -l fix -d "apply the fixes to the plan files"
complete -c capops-lint -n $lint -l fix-dry-run -d "print the diff --fix would make"
complete -c capops-lint -n $lint -l fix-inventory -d "let --fix edit inventory files"
complete -c capops-lint -n $lint -l max-repair-lints -r -d "lints the repair search may run (0: none)"
complete -c capops-lint -n $lint -l fail-on -x -a "error warning info never" -d "lowest severity that fails the run"
complete -c capops-lint -n $lint -l source-root -x -a "(__fish_complete_directories)" -d "what SARIF's %SRCROOT% stands for"
complete -c capops-lint -n $lint -l rules-url -x -d "where the rule catalogue is published"
complete -c capops-lint -n $lint -s j -l jobs -x -d "threads"
complete -c capops-lint -n $lint -l allow-empty -d "exit 0 with no plan or no rule"
complete -c capops-lint -n $lint -l format -x -a "text short json sarif junit github html" -d "output format"
complete -c capops-lint -n $lint -l color -x -a "auto always never" -d "colour the text output"
complete -c capops-lint -n $lint -s v -l verbose -d "log what is loaded"
complete -c capops-lint -n $lint -s V -l version -d "version, commit and pack digest"
complete -c capops-lint -n $lint -l why-not -x -d "why this rule did not fire (with --at)"
complete -c capops-lint -n $lint -l at -x -d "the fact for --why-not"
complete -c capops-lint -n $lint -l stdin-filename -r -F -d "the path the plan on stdin (-) is linted as"
for limit in max-file-size max-depth max-values max-documents max-string-length max-steps max-memory
    complete -c capops-lint -n $lint -l $limit -x -d "a limit against hostile input"
end

# Subcommands' own options.
complete -c capops-lint -n "__capops_lint_in explain eval why-not" -l policy -r -F -d "policy file or directory"
complete -c capops-lint -n "__capops_lint_in eval why-not rules" -l inventory -r -F -d "inventory file"
complete -c capops-lint -n "__capops_lint_in eval test params" -l format -x -a "text json" -d "output format"
complete -c capops-lint -n "__capops_lint_in params" -l policies -r -F -d "policy file or directory"
complete -c capops-lint -n "__capops_lint_in params" -l config -r -F -d "config file"
complete -c capops-lint -n "__capops_lint_in params" -l no-config -d "do not look for .capops.yaml"
complete -c capops-lint -n "__capops_lint_in eval" -l explain -d "each sub-expression's value"
complete -c capops-lint -n "__capops_lint_in check-rules" -l cost -d "each rule's static cost bound"
complete -c capops-lint -n "__capops_lint_in check-rules" -l plan -d "how each rule will run"
complete -c capops-lint -n "__capops_lint_in test" -l coverage -d "rule and condition coverage"
complete -c capops-lint -n "__capops_lint_in test" -l min-coverage -x -d "fail below this condition coverage (%)"
complete -c capops-lint -n "__capops_lint_in rules" -l diff -r -F -d "compare two versions: OLD NEW"
complete -c capops-lint -n "__capops_lint_in rules" -l fail-on-new -d "with --diff: exit 1 when a finding appears, gets worse or now fails"
complete -c capops-lint -n "__capops_lint_in rules" -l fail-on -x -a "error warning info never" -d "with --diff: lowest failing severity"
complete -c capops-lint -n "__capops_lint_in rules" -l max-findings -x -d "with --diff: findings listed at most (0: all)"
complete -c capops-lint -n "__capops_lint_in rules" -l digest -d "print only the ruleset digest"
complete -c capops-lint -n "__capops_lint_in rules" -l canonical -d "print the canonical form"
complete -c capops-lint -n "__capops_lint_in rules" -l format -x -a "text json markdown" -d "output format"
complete -c capops-lint -n "__capops_lint_in doc" -s o -l output -x -a "(__fish_complete_directories)" -d "output directory"
complete -c capops-lint -n "__capops_lint_in schema" -s o -l output -r -F -d "write it to FILE"
complete -c capops-lint -n "__capops_lint_in schema" -l format -x -a "json-schema" -d "output format"
complete -c capops-lint -n "__capops_lint_in fmt" -l check -d "list files that would change; exit 1 if any"
complete -c capops-lint -n "__capops_lint_in why-not" -l at -x -d "the fact: allocations[a-train] or plan.yaml:37"
