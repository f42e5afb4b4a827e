"""`python -m validator`: the road300 command."""

from validator.cli import main

if __name__ == "__main__":  # not when a worker process imports the main module again
    main()
