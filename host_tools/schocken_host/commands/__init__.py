"""The command line's one registry: every verb of `schocken` and every job of a verb that has jobs (`liga`,
`turnier`), each a ``Command`` with the other names it answers to beside it (a job's German or English name)
and the text key of its one-line description. cli.py builds its parser from ``VERBS``; a verb with jobs keeps
them in a ``Commands`` of its own (``JOBS`` in its module), builds their parsers with ``add_parsers`` and runs
the one asked for by ``JOBS[args.job].run``. A new verb is one entry in ``VERBS`` and its module; a new job is
one entry in its verb's ``JOBS`` and its handler."""

import importlib

from schocken_host.i18n import tr


class Command:
    """A verb or a job. ``run``: what it does (a verb's ``run(args)``; a job's handler, called with what its
    verb hands it); ``arguments(parser)``: adds its own arguments (None: it takes none of its own);
    ``module``: a verb's module under commands/, with ``add_arguments(parser)`` and ``run(args)``, imported
    when the parser is built."""
    __slots__ = ("name", "text", "run", "arguments", "aliases", "module")

    def __init__(self, name, text, run=None, arguments=None, aliases=(), module=None):
        self.name, self.text, self.run, self.arguments = name, text, run, arguments
        self.aliases, self.module = tuple(aliases), module

    def load(self):
        # Read anew each time a parser is built: a verb's run is what its module holds then.
        if self.module is not None:
            module = importlib.import_module(__name__ + "." + self.module)
            self.run, self.arguments = module.run, module.add_arguments
        return self


class Commands:
    """Verbs, or one verb's jobs, in the order --help lists them, found by name or by alias. ``dest``: the
    attribute of the parsed arguments that names the one given; ``metavar``: the text key of its placeholder
    in the usage line."""

    def __init__(self, dest, metavar, *commands):
        self.dest, self.metavar, self.commands = dest, metavar, commands
        self._named = {}
        for command in commands:
            for name in (command.name,) + command.aliases:
                if name in self._named:
                    raise ValueError("two commands are called %r" % name)
                self._named[name] = command

    def __iter__(self):
        return iter(self.commands)

    def __getitem__(self, name):
        return self._named[name]

    def names(self):
        """Each command's own name, in order (no alias)."""
        return [command.name for command in self.commands]

    def add_parsers(self, parser, lang, common=None):
        """One subparser of ``parser`` per command, described in ``lang``; ``common(subparser, command)`` adds
        what all of them take, before the command's own arguments. -> {name: subparser}."""
        chooser = parser.add_subparsers(dest=self.dest, metavar=tr(lang, self.metavar))
        made = {}
        for command in self.commands:
            words = tr(lang, command.text)
            made[command.name] = sub = chooser.add_parser(
                command.name, aliases=list(command.aliases), help=words, description=words,
                formatter_class=parser.formatter_class)
            sub.lang = lang
            if common is not None:
                common(sub, command)
            command.load()
            if command.arguments is not None:
                command.arguments(sub)
        return made


VERBS = Commands("verb", "cli.verb_metavar", *(
    Command(name, "cli.verb_" + module, module=module) for name, module in (
        ("rules", "rules"),
        ("rank", "rank"),
        ("odds", "odds"),
        ("cup", "cup"),
        ("shake-replay", "shake_replay"),
        ("play", "play"),
        ("deploy", "deploy"),
        ("build", "build"),
        ("doctor", "doctor"),
        ("scan", "scan"),
        ("replay", "replay"),
        ("stats", "stats"),
        ("watch", "watch"),
        ("liga", "liga"),
        ("turnier", "turnier"),
    )))
