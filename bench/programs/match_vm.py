# A match-heavy interpreter loop: the twin of match_vm.syn, with structural pattern matching
# and the idiomatic list.append / list.pop where the Synsema side writes append / slice.
program = [["push", 0], ["store", "acc"], ["push", 0], ["store", "i"], ["load", "i"], ["push", 20000], ["lt"], ["jump_if_not", 20], ["load", "acc"], ["load", "i"], ["load", "i"], ["mul"], ["push", 7], ["mod"], ["add"], ["store", "acc"], ["load", "i"], ["push", 1], ["add"], ["store", "i"], ["jump", 4], ["halt"]]


def run(code):
    stack = []
    vars = {}
    pc = 0
    steps = 0
    while True:
        ins = code[pc]
        pc = pc + 1
        steps = steps + 1
        match ins:
            case ["push", v]:
                stack.append(v)
            case ["load", name]:
                stack.append(vars[name])
            case ["store", name]:
                vars[name] = stack.pop()
            case [op] if op == "add" or op == "mul" or op == "mod" or op == "lt":
                b = stack.pop()
                a = stack.pop()
                match op:
                    case "add":
                        stack.append(a + b)
                    case "mul":
                        stack.append(a * b)
                    case "mod":
                        stack.append(a % b)
                    case "lt":
                        stack.append(a < b)
            case ["jump", target]:
                pc = target
            case ["jump_if_not", target]:
                c = stack.pop()
                if not c:
                    pc = target + 1
            case ["halt"]:
                return [vars["acc"], steps]


print(run(program))
