# A fake manifest for the grade report's CPU test (check_grade_report.cmake): every kind of part.
tutorial_manifest_exercise(ID [[ex90.1]] CHAPTER [[90_fake]] TITLE [[all passed]] SOURCES [[a.cu]] CASES [[a;b;c;d]] SANITIZE [[memcheck;racecheck]] SPEED 1 PREDICTION [[]])
tutorial_manifest_exercise(ID [[ex90.2]] CHAPTER [[90_fake]] TITLE [[half done, slow]] SOURCES [[a.cu]] CASES [[a;b;c]] SANITIZE [[memcheck]] SPEED 1 PREDICTION [[]])
tutorial_manifest_exercise(ID [[ex90.3]] CHAPTER [[90_fake]] TITLE [[no GPU here]] SOURCES [[b.cu]] CASES [[a;b]] SANITIZE [[]] SPEED 1 PREDICTION [[]])
tutorial_manifest_exercise(ID [[ex90.4]] CHAPTER [[90_fake]] TITLE [[a right prediction]] SOURCES [[]] CASES [[]] SANITIZE [[]] SPEED 0 PREDICTION [[ex90_prediction.txt]])
tutorial_manifest_exercise(ID [[ex90.5]] CHAPTER [[90_fake]] TITLE [[a prediction still TODO]] SOURCES [[]] CASES [[]] SANITIZE [[]] SPEED 0 PREDICTION [[ex90_prediction.txt]])
tutorial_manifest_exercise(ID [[ex90.6]] CHAPTER [[90_fake]] TITLE [[never ran]] SOURCES [[c.cu]] CASES [[x;y]] SANITIZE [[]] SPEED 0 PREDICTION [[]])
tutorial_manifest_exercise(ID [[ex90.7]] CHAPTER [[90_fake]] TITLE [[one case timed out]] SOURCES [[c.cu]] CASES [[small;big]] SANITIZE [[]] SPEED 0 PREDICTION [[]])
tutorial_manifest_exercise(ID [[ex90.8]] CHAPTER [[90_fake]] TITLE [[does not compile]] SOURCES [[d.cu]] CASES [[a]] SANITIZE [[memcheck]] SPEED 0 PREDICTION [[]])
