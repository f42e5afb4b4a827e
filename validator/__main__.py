"""`python -m validator`: the road300 command."""

from validator.cli import main

if __name__ == "__main__":  # not when something merely imports this module
    main()
